import type { showroomReportsZhTW } from "./showroom-reports.zh-TW";

/** The dashboard's showroom section and the campaign audience's showroom filters (issue 37 part 5, ADR 048). */
export const showroomReportsEn = {
  "console.dashboard.showroom.title": "Showroom",
  "console.dashboard.showroom.lead":
    "By the appointment's date (Taipei time); purchases counted within 30 and 90 days after the member's visit.",
  "console.dashboard.showroom.kind.visit": "Visit",
  "console.dashboard.showroom.kind.consultation": "Design consultation",
  "console.dashboard.showroom.kind.measuring": "On-site measuring",
  "console.dashboard.showroom.total": "Total",
  "console.dashboard.showroom.appointments.title": "Appointments and visits",
  "console.dashboard.showroom.appointments.storeKind": "Store · kind",
  "console.dashboard.showroom.appointments.kind": "Kind",
  "console.dashboard.showroom.appointments.booked": "Booked",
  "console.dashboard.showroom.appointments.upcoming": "Not yet due",
  "console.dashboard.showroom.appointments.kept": "Kept",
  "console.dashboard.showroom.appointments.noShow": "No-show",
  "console.dashboard.showroom.appointments.cancelled": "Cancelled",
  "console.dashboard.showroom.appointments.empty": "No appointments in this period",
  "console.dashboard.showroom.kpi.kept": "Kept visits",
  "console.dashboard.showroom.kpi.keptDetail": "Booked {booked} · no-show {noShow} · cancelled {cancelled}",
  "console.dashboard.showroom.kpi.bought30": "Bought within 30 days",
  "console.dashboard.showroom.kpi.bought90": "Bought within 90 days",
  "console.dashboard.showroom.kpi.boughtDetail": "{bought} of {kept} visits · {amount} spent",
  "console.dashboard.showroom.visits.title": "Purchases after a visit",
  "console.dashboard.showroom.visits.lead":
    "Purchases at any store within 30 and 90 days of a member's kept visit (the visit's day included), net of refunds, each purchase counted once. Guests' visits cannot be followed and are left out.",
  "console.dashboard.showroom.visits.open":
    "The 30 days of {open30} visits and the 90 days of {open90} visits have not ended yet: these shares can still rise.",
  "console.dashboard.showroom.visits.kept": "Members' visits",
  "console.dashboard.showroom.visits.share30": "Bought in 30 days",
  "console.dashboard.showroom.visits.amount30": "Spent in 30 days",
  "console.dashboard.showroom.visits.share90": "Bought in 90 days",
  "console.dashboard.showroom.visits.amount90": "Spent in 90 days",
  "console.dashboard.showroom.visits.empty": "No member visits in this period",
  "console.dashboard.showroom.samples.title": "Sample loans",
  "console.dashboard.showroom.samples.lead":
    "Handed out by the day they were handed out (Taipei time); out and overdue are as of now, overdue meaning past the due-back date and not returned.",
  "console.dashboard.showroom.samples.store": "Store",
  "console.dashboard.showroom.samples.handedOut": "Handed out",
  "console.dashboard.showroom.samples.out": "Out now",
  "console.dashboard.showroom.samples.overdue": "Overdue now",
  "console.dashboard.showroom.samples.empty": "No samples handed out",
  "console.dashboard.showroom.quotes.title": "Quotes and the purchases after them",
  "console.dashboard.showroom.quotes.lead":
    "By the day of the request and of the answer (Taipei time); purchases by that member at that store within 30 days of the answer (its day included), net of refunds, each purchase once.",
  "console.dashboard.showroom.quotes.store": "Store",
  "console.dashboard.showroom.quotes.requested": "Requested",
  "console.dashboard.showroom.quotes.answered": "Answered",
  "console.dashboard.showroom.quotes.share": "Bought within 30 days",
  "console.dashboard.showroom.quotes.amount": "Amount within 30 days",
  "console.dashboard.showroom.quotes.empty": "No quotes requested or answered in this period",
  "console.dashboard.showroom.quotes.open":
    "The 30 days after {open} of the answers have not ended yet; the share may still rise.",
  "console.messages.audience.showroom": "Showroom",
  "console.messages.audience.showroomHint":
    "By the materials members saved, their open quotes and the stores they came to lately.",
  "console.messages.audience.favouriteCategory": "Saved a material of this category",
  "console.messages.audience.visitedStore": "Came to this store",
  "console.messages.audience.visitedDays": "Within the last days (1–365)",
  "console.messages.audience.visitedHint":
    "A checked-in appointment or a purchase at that store counts as a visit (Taipei days).",
  "console.messages.audience.quoteOpen": "Quote",
  "console.messages.audience.quoteOpenYes": "Has an open quote (awaiting an answer, or answered and still valid)",
  "console.messages.error.visitedDays": "Enter a whole number of days from 1 to 365",
  "console.messages.error.visitedDaysWithoutStore": "Choose the store too",
  "console.messages.error.visitedStoreWithoutDays": "Enter within how many days",
} as const satisfies Record<keyof typeof showroomReportsZhTW, string>;
