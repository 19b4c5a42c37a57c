import type { Database } from "@platform/db/client";
import { member } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { type CalendarDate, taipeiDate } from "~/lib/time";

/**
 * The birthday rule of the loyalty programme (issue #6): "a birthday changed to within the next 30
 * days earns nothing until next year". `member.birthdayChangedAt` records when the birthday on record
 * was entered — at sign-up too (the first entry counts, ADR 012) — and the nightly birthday job asks
 * birthdayPointsWithheld() before it books the points.
 */
export const BIRTHDAY_CHANGE_NOTICE_DAYS = 30;

const dayNumber = (d: CalendarDate) => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The birthday's date in `year` (29 February falls on 28 February in other years). */
export function birthdayIn(birthday: string, year: number): CalendarDate {
  const [, month, day] = birthday.split("-").map(Number) as [number, number, number];
  return { year, month, day: month === 2 && day === 29 && !isLeap(year) ? 28 : day };
}

/**
 * True when the year's birthday points are withheld: the birthday on record was entered on a Taipei
 * day from 30 days before that year's birthday up to the end of the birthday month (a birthday moved
 * to earlier in the current month would otherwise be paid at once, so it is covered too).
 */
export function birthdayPointsWithheld(birthday: string, changedAt: Date | null, year: number): boolean {
  if (!changedAt) return false;
  const day = birthdayIn(birthday, year);
  const changed = dayNumber(taipeiDate(changedAt));
  const endOfMonth = Date.UTC(year, day.month, 0) / 86_400_000;
  return changed >= dayNumber(day) - BIRTHDAY_CHANGE_NOTICE_DAYS && changed <= endOfMonth;
}

/**
 * Sets a member's birthday (YYYY-MM-DD, or null to clear it) and records when, so the birthday rule
 * can apply. Every place that lets a member or staff change a birthday must go through this (the
 * edit-profile page included). Writing the same birthday again changes nothing. Returns whether the
 * birthday changed and, if so, whether this year's birthday points are now withheld (for a notice).
 */
export async function changeMemberBirthday(
  db: Database,
  memberId: string,
  birthday: string | null,
  now = new Date(),
): Promise<{ changed: boolean; pointsWithheldThisYear: boolean }> {
  if (birthday !== null && !/^\d{4}-\d{2}-\d{2}$/.test(birthday)) throw new Error("birthday must be YYYY-MM-DD");
  const [current] = await db.select({ birthday: member.birthday }).from(member).where(eq(member.id, memberId));
  if (!current) throw new Error(`no member ${memberId}`);
  if (current.birthday === birthday) return { changed: false, pointsWithheldThisYear: false };
  await db
    .update(member)
    .set({ birthday, birthdayChangedAt: birthday ? now : null, updatedAt: now })
    .where(eq(member.id, memberId));
  const year = taipeiDate(now).year;
  return {
    changed: true,
    pointsWithheldThisYear:
      birthday !== null &&
      (birthdayPointsWithheld(birthday, now, year) || birthdayPointsWithheld(birthday, now, year + 1)),
  };
}
