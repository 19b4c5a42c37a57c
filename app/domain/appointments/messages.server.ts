import { createHash } from "node:crypto";
import type { Database } from "@platform/db/client";
import { appointment, authAccount, lineFriend, member, store } from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import type { Logger } from "@platform/logger";
import { and, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { isLocale, type Locale, type MessageKey } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { addDays, fromTaipeiWallClock, taipeiDate } from "~/lib/time";
import type { LineMessagingClient } from "../line/messaging.server";
import { inQuietHours } from "../member-messages/channels";
import { renderMemberEmail } from "../messaging/email-templates.server";
import type { EmailTransport } from "../messaging/email-transport.server";
import { composeSms } from "../messaging/sms";
import type { SmsProvider } from "../messaging/sms-provider";
import { cutoffText } from "../showroom/settings";
import { showroomSettings } from "../showroom/settings.server";
import { whenText } from "./display";
import { guestManageToken } from "./manage-link.server";

/**
 * The messages of a booking (issue 37, ADR 044): a confirmation at once and a reminder the day before from the
 * reminder hour (a showroom setting, ADR 050; 10:00 by default) Taipei, by the member's channel — LINE (linked and following) → SMS → e-mail; a guest gets SMS. They are
 * transactional, not marketing: no opt-in, no weekly cap, the confirmation is not held by the marketing quiet hours
 * — but no text message goes 21:00–09:00 Taipei: a booking whose channel is SMS waits until 09:00 (the next pass
 * after it). LINE and e-mail carry the booking's page and its calendar file; a text message carries no link (the
 * SMS rules, app/domain/messaging/sms.ts).
 *
 * Each pass claims the due bookings with `for update skip locked` and stamps `confirmation_sent_at` /
 * `reminder_sent_at` in the same transaction before sending, so two instances never send the same one; a send that
 * then fails is logged, not retried (at most once).
 */

export type AppointmentMessageDeps = {
  db: Database;
  line: LineMessagingClient | null;
  sms: SmsProvider;
  email: EmailTransport;
  publicBaseUrl: string;
  /** The server secret a guest's link is signed with (manage-link.server.ts). */
  secret: string;
  logger?: Pick<Logger, "info" | "warn" | "error">;
};

type Occasion = "confirmation" | "reminder";
type Channel = "line" | "sms" | "email";

type Due = {
  id: string;
  reference: string;
  kind: string;
  startsAt: Date;
  endsAt: Date;
  locale: string;
  memberId: string | null;
  guestPhone: string | null;
  storeName: { "zh-TW": string; en: string };
  storePhone: string;
  memberLocale: string | null;
  memberPhone: string | null;
  memberEmail: string | null;
  lineUserId: string | null;
  following: boolean | null;
};

const BATCH = 50;

/** The channel of one booking's message, or null when it must wait (SMS in the night) or nothing reaches them. */
export function channelFor(
  due: Pick<Due, "memberId" | "lineUserId" | "following" | "memberPhone" | "memberEmail" | "guestPhone">,
  lineOn: boolean,
  now: Date,
): Channel | "wait" | null {
  if (due.memberId) {
    if (lineOn && due.lineUserId && due.following) return "line";
    if (due.memberPhone) return inQuietHours(now) ? "wait" : "sms";
    if (due.memberEmail) return "email";
    return null;
  }
  if (due.guestPhone) return inQuietHours(now) ? "wait" : "sms";
  return null;
}

/**
 * The first instant a reminder for a booking may go: the reminder hour (the showroom setting, 10 by default)
 * Taipei, the day before.
 */
export function reminderTime(startsAt: Date, reminderHour: number): Date {
  return fromTaipeiWallClock(addDays(taipeiDate(startsAt), -1), reminderHour);
}

async function claim(deps: AppointmentMessageDeps, occasion: Occasion, now: Date) {
  const lineOn = deps.line !== null;
  const { reminderHour } = await showroomSettings(deps.db);
  return deps.db.transaction(async (tx) => {
    const open = eq(appointment.status, "booked");
    const where =
      occasion === "confirmation"
        ? and(open, isNull(appointment.confirmationSentAt), gte(appointment.startsAt, now))
        : and(
            open,
            isNull(appointment.reminderSentAt),
            gte(appointment.startsAt, now),
            // Bookings of tomorrow (Taipei) once it is the reminder hour today; one booked after that hour the day
            // before has its confirmation.
            lt(appointment.startsAt, fromTaipeiWallClock(addDays(taipeiDate(now), 2))),
            lt(
              appointment.createdAt,
              sql`(date_trunc('day', ${appointment.startsAt} at time zone 'Asia/Taipei') - make_interval(hours => ${24 - reminderHour}::int)) at time zone 'Asia/Taipei'`,
            ),
          );
    const candidates = await tx
      .select({ id: appointment.id, startsAt: appointment.startsAt })
      .from(appointment)
      .where(where)
      .orderBy(appointment.startsAt)
      .limit(BATCH)
      .for("update", { skipLocked: true });
    const ready =
      occasion === "confirmation"
        ? candidates
        : candidates.filter((c) => reminderTime(c.startsAt, reminderHour) <= now);
    if (ready.length === 0) return [];
    const rows: Due[] = await tx
      .select({
        id: appointment.id,
        reference: appointment.reference,
        kind: appointment.kind,
        startsAt: appointment.startsAt,
        endsAt: appointment.endsAt,
        locale: appointment.locale,
        memberId: appointment.memberId,
        guestPhone: appointment.guestPhone,
        storeName: store.name,
        storePhone: store.phone,
        memberLocale: member.locale,
        memberPhone: member.phoneNumber,
        memberEmail: member.email,
        lineUserId: authAccount.accountId,
        following: lineFriend.following,
      })
      .from(appointment)
      .innerJoin(store, eq(store.id, appointment.storeId))
      .leftJoin(member, eq(member.id, appointment.memberId))
      .leftJoin(authAccount, and(eq(authAccount.userId, member.userId), eq(authAccount.providerId, "line")))
      .leftJoin(lineFriend, eq(lineFriend.lineUserId, authAccount.accountId))
      .where(
        inArray(
          appointment.id,
          ready.map((r) => r.id),
        ),
      );
    const planned = rows
      .map((row) => ({ row, channel: channelFor(row, lineOn, now) }))
      .filter((p): p is { row: Due; channel: Channel | null } => p.channel !== "wait");
    if (planned.length === 0) return [];
    await tx
      .update(appointment)
      .set(occasion === "confirmation" ? { confirmationSentAt: now } : { reminderSentAt: now })
      .where(
        inArray(
          appointment.id,
          planned.map((p) => p.row.id),
        ),
      );
    return planned;
  });
}

function localeOf(row: Due): Locale {
  const chosen = row.memberLocale ?? row.locale;
  return isLocale(chosen) ? chosen : "zh-TW";
}

export type ComposedMessage = { title: string; text: string; pageUrl: string; icsUrl: string };

/**
 * The words of one booking's message in the reader's language. A member's page is in their member center; a guest
 * has none: their page is the one the booking answered with, by its link (ADR 044, "a guest's own page"). A text
 * message carries no link (composeSms refuses one: an SMS link is the phishing pattern members are taught to
 * ignore), so a guest's SMS says where to change it in words; a link goes only by LINE or e-mail, which a guest
 * does not have.
 */
export function composeAppointmentMessage(
  row: Due,
  occasion: Occasion,
  publicBaseUrl: string,
  cutoffMinutes: number,
  secret: string,
): ComposedMessage {
  const locale = localeOf(row);
  const t = catalogT(locale);
  const base = publicBaseUrl.replace(/\/$/, "");
  const pageUrl = row.memberId
    ? `${base}${links.memberAppointment(row.id)}`
    : `${base}${links.guestAppointment(guestManageToken(secret, row.id))}`;
  const values = {
    store: row.storeName[locale] ?? row.storeName["zh-TW"],
    kind: t(`appointments.kind.${row.kind}` as MessageKey),
    when: whenText(row.startsAt, row.endsAt, locale),
    reference: row.reference,
    phone: row.storePhone,
    cutoff: cutoffText(cutoffMinutes, t),
  };
  return {
    title: t(`notify.appointments.${occasion}.title` as MessageKey),
    text: t(`notify.appointments.${occasion}.${row.memberId ? "text" : "guestText"}` as MessageKey, values),
    pageUrl,
    icsUrl: `${base}${links.memberAppointmentIcs(row.id)}`,
  };
}

async function sendOne(
  deps: AppointmentMessageDeps,
  row: Due,
  channel: Channel,
  occasion: Occasion,
  cutoffMinutes: number,
): Promise<void> {
  const message = composeAppointmentMessage(row, occasion, deps.publicBaseUrl, cutoffMinutes, deps.secret);
  const t = catalogT(localeOf(row));
  const key = `${row.id}:${occasion}`;
  if (channel === "line" && deps.line && row.lineUserId) {
    const links = row.memberId
      ? `\n\n${t("notify.appointments.page")} ${message.pageUrl}\n${t("notify.appointments.ics")} ${message.icsUrl}`
      : "";
    await deps.line.push(
      row.lineUserId,
      [{ type: "text", text: `${message.title}\n${message.text}${links}` }],
      retryKey(key),
    );
    return;
  }
  if (channel === "sms") {
    const to = (row.memberId ? row.memberPhone : row.guestPhone) as string;
    const sms = composeSms({ to, text: message.text });
    await deps.sms.send({ ...sms, idempotencyKey: key });
    return;
  }
  if (channel === "email" && row.memberEmail) {
    const rendered = renderMemberEmail({
      locale: localeOf(row),
      subject: message.title,
      title: message.title,
      text: `${message.text}\n\n${t("notify.appointments.ics")} ${message.icsUrl}`,
      action: { label: t("notify.appointments.page"), url: message.pageUrl },
      footer: t("notify.email.footerService"),
    });
    await deps.email.send({ to: row.memberEmail, ...rendered, idempotencyKey: key });
  }
}

/** LINE's X-Line-Retry-Key is a UUID: the same one for every try of one booking's message (RFC 4122 layout). */
function retryKey(key: string): string {
  const hex = createHash("sha256").update(`appointment-message:${key}`).digest("hex");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A send that failed: its stamp is cleared (only the one this pass set), so the booking is due again. */
async function unclaim(deps: AppointmentMessageDeps, id: string, occasion: Occasion, stamped: Date): Promise<void> {
  const column = occasion === "confirmation" ? appointment.confirmationSentAt : appointment.reminderSentAt;
  await deps.db
    .update(appointment)
    .set(occasion === "confirmation" ? { confirmationSentAt: null } : { reminderSentAt: null })
    .where(and(eq(appointment.id, id), eq(column, stamped)));
}

/** One pass: the due confirmations, then the due reminders. Returns how many of each went out. */
export async function sendAppointmentMessages(
  deps: AppointmentMessageDeps,
  now = new Date(),
): Promise<{ confirmations: number; reminders: number }> {
  const counts = { confirmations: 0, reminders: 0 };
  // The cut-off the messages name: the showroom setting in force (ADR 050).
  const { changeCutoffMinutes } = await showroomSettings(deps.db);
  for (const occasion of ["confirmation", "reminder"] as const) {
    const planned = await claim(deps, occasion, now);
    for (const { row, channel } of planned) {
      if (!channel) continue;
      try {
        await sendOne(deps, row, channel, occasion, changeCutoffMinutes);
        if (occasion === "confirmation") counts.confirmations++;
        else counts.reminders++;
      } catch (error) {
        // Not sent: the stamp the claim set is taken back, so the next pass (every minute) tries again until the
        // appointment begins. The keys make a retry of a send the provider did take a no-op (SMS and e-mail by their
        // idempotency key, LINE by its retry key), so a member gets the message once.
        await unclaim(deps, row.id, occasion, now);
        deps.logger?.warn(
          { err: (error as Error).message, appointment: row.id, occasion },
          "appointment message not sent; retried on the next pass",
        );
      }
    }
  }
  return counts;
}

export const APPOINTMENT_MESSAGES_QUEUE = "appointments.messages";
/** Every minute (Taipei): held text messages go at 09:00, reminders from the reminder hour; a booking sends at once. */
export const APPOINTMENT_MESSAGES_CRON = "* * * * *";

export async function registerAppointmentJobs(jobs: JobQueue, deps: AppointmentMessageDeps): Promise<void> {
  await jobs.define(APPOINTMENT_MESSAGES_QUEUE, { retryLimit: 2, retryDelay: 30, expireInSeconds: 5 * 60 });
  await jobs.work(APPOINTMENT_MESSAGES_QUEUE, async () => sendAppointmentMessages(deps, new Date()));
  await jobs.schedule(APPOINTMENT_MESSAGES_QUEUE, APPOINTMENT_MESSAGES_CRON);
}
