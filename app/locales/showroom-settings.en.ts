import type { showroomSettingsZhTW } from "./showroom-settings.zh-TW";

/** The showroom settings (issue 37, ADR 050). */
export const showroomSettingsEn: Record<keyof typeof showroomSettingsZhTW, string> = {
  "console.nav.showroom": "Showroom settings",
  "console.showroom.title": "Showroom settings",
  "console.showroom.lead":
    "The rules of appointments and sample loans. A change applies at once to new bookings, changes and sample requests; bookings already made keep their time and samples already out keep their due day.",
  "console.showroom.saved": "Showroom settings saved (version {id}).",
  "console.showroom.unchanged": "The values are the ones in force; no new version was made.",
  "console.showroom.appointmentsTitle": "Appointments",
  "console.showroom.samplesTitle": "Sample loans",
  "console.showroom.field.bookingHorizonDays": "Booking horizon (days)",
  "console.showroom.hint.bookingHorizonDays": "Members may book up to this many days from today ({min}–{max}).",
  "console.showroom.field.changeCutoffMinutes": "Booking, change and cancel cut-off (minutes)",
  "console.showroom.hint.changeCutoffMinutes":
    "Online booking, moving and cancelling close this many minutes before the start ({min}–{max}; 120 is 2 hours).",
  "console.showroom.field.reminderHour": "Day-before reminder (hour)",
  "console.showroom.hint.reminderHour": "The reminder goes from this hour the day before, Taipei time ({min}–{max}).",
  "console.showroom.field.noShowGraceMinutes": "No-show after (minutes)",
  "console.showroom.hint.noShowGraceMinutes":
    "A booking not checked in this many minutes after its slot ends is marked a no-show ({min}–{max}).",
  "console.showroom.field.sampleLimit": "Samples per member at once",
  "console.showroom.hint.sampleLimit": "Requested, ready and out together ({min}–{max}).",
  "console.showroom.field.sampleLoanDays": "Loan period (days)",
  "console.showroom.hint.sampleLoanDays": "Due back this many days after the hand-out ({min}–{max}).",
  "console.showroom.field.sampleReminderDays": "Return reminder (days before the due day)",
  "console.showroom.hint.sampleReminderDays":
    "The member is reminded this many days before the due day; fewer than the loan days ({min}–{max}).",
  "console.showroom.save": "Save settings",
  "console.showroom.history": "History",
  "console.showroom.historyEmpty": "Never changed: the defaults are in force.",
  "console.showroom.col.version": "Version",
  "console.showroom.col.at": "In force from",
  "console.showroom.col.by": "Changed by",
  "console.showroom.col.appointments": "Appointments (days / min / hour / min)",
  "console.showroom.col.samples": "Samples (items / days / days)",
  "console.showroom.error.range": "Enter a whole number from {min} to {max}",
  "console.showroom.error.reminderAfterDue": "The reminder must come fewer days before than the loan period",
  "console.showroom.error.fix": "Please fix the marked fields.",
  "console.showroom.error.conflict":
    "Another admin just changed the showroom settings; the newest version is shown below. Check it and save again.",
  "console.audit.act.showroom.settings_changed": "Showroom settings changed",
  "console.audit.target.showroom_settings": "Showroom settings",
  "appointments.duration.minutes": "{n} minutes",
  "appointments.duration.hours": "{n} hours",
};
