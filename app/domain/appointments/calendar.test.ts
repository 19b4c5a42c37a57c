import { describe, expect, it } from "vitest";
import { escapeText, foldLine, googleCalendarLink, icsFile } from "./calendar";

const event = {
  uid: "A7K2QX9M",
  sequence: 2,
  title: "設計諮詢｜信義旗艦店",
  description: "漢生活 信義旗艦店｜設計諮詢｜預約編號 A7K2QX9M; bring photos, plans",
  location: "臺北市信義區松仁路 168 號 1–3 樓",
  startsAt: new Date("2026-12-08T06:00:00Z"),
  endsAt: new Date("2026-12-08T07:00:00Z"),
  now: new Date("2026-12-06T01:02:03Z"),
  url: "https://example.test/member-center/appointments/x",
};

describe("the booking's calendar file (RFC 5545)", () => {
  const file = icsFile(event);

  it("is one VEVENT with UTC times, CRLF line ends and the booking's reference as its UID", () => {
    expect(file.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(file.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(file.split("\r\n").filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
    expect(file).toContain("\r\nDTSTART:20261208T060000Z\r\n");
    expect(file).toContain("\r\nDTEND:20261208T070000Z\r\n");
    expect(file).toContain("\r\nDTSTAMP:20261206T010203Z\r\n");
    expect(file).toContain("\r\nUID:A7K2QX9M@hanliving-appointments\r\n");
    expect(file).toContain("\r\nSEQUENCE:2\r\n");
    expect(file.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("folds lines at 75 octets without splitting a character, and escapes text", () => {
    for (const line of file.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = file.replace(/\r\n /g, "");
    expect(unfolded).toContain(`DESCRIPTION:${escapeText(event.description)}`);
    expect(escapeText("a;b,c\\d\ne")).toBe("a\\;b\\,c\\\\d\\ne");
    const long = `SUMMARY:${"漢".repeat(40)}`;
    expect(foldLine(long).replace(/\r\n /g, "")).toBe(long);
  });

  it("a cancelled booking is a CANCEL with status CANCELLED", () => {
    const cancelled = icsFile({ ...event, cancelled: true });
    expect(cancelled).toContain("METHOD:CANCEL");
    expect(cancelled).toContain("STATUS:CANCELLED");
  });

  it("Google's link carries the same times", () => {
    const url = new URL(googleCalendarLink(event));
    expect(url.hostname).toBe("calendar.google.com");
    expect(url.searchParams.get("dates")).toBe("20261208T060000Z/20261208T070000Z");
    expect(url.searchParams.get("text")).toBe(event.title);
  });
});
