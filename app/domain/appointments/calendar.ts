/**
 * A booking as a calendar entry (ADR 044): an RFC 5545 VCALENDAR with one VEVENT (UTC times, so no VTIMEZONE is
 * needed; Taipei has no DST), CRLF line ends and lines folded at 75 octets; and Google Calendar's "add" link.
 * Written here instead of the `ics` package (not installed): one event, a few properties.
 */
export type CalendarEvent = {
  /** Stable id of the booking (its reference); a rescheduled booking keeps it, with a higher sequence. */
  uid: string;
  sequence: number;
  title: string;
  description: string;
  location: string;
  startsAt: Date;
  endsAt: Date;
  /** When the file is made (DTSTAMP). */
  now: Date;
  url?: string;
  cancelled?: boolean;
};

/** 20261207T020000Z */
export function utcStamp(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** TEXT escaping of RFC 5545 §3.3.11. */
export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** Folds a content line at 75 octets (UTF-8), never inside a character; continuation lines start with a space. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    const limit = parts.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

export function icsFile(event: CalendarEvent): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Han Living//Appointments//ZH-TW",
    "CALSCALE:GREGORIAN",
    `METHOD:${event.cancelled ? "CANCEL" : "PUBLISH"}`,
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}@hanliving-appointments`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.now)}`,
    `DTSTART:${utcStamp(event.startsAt)}`,
    `DTEND:${utcStamp(event.endsAt)}`,
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `STATUS:${event.cancelled ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}

/** Google Calendar's "add to calendar" link for the same event. */
export function googleCalendarLink(
  event: Pick<CalendarEvent, "title" | "description" | "location" | "startsAt" | "endsAt">,
): string {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${utcStamp(event.startsAt)}/${utcStamp(event.endsAt)}`,
    details: event.description,
    location: event.location,
    ctz: "Asia/Taipei",
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}
