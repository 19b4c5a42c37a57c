import type { Database } from "@platform/db/client";
import { appointment, authAccount, lineFriend } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import type { LineMessagingClient } from "../line/messaging.server";
import { newMember } from "../loyalty/testing.server";
import { recordingEmail, recordingSms } from "../messaging/testing";
import { bookAppointment, type Owner } from "./appointments.server";
import { type AppointmentMessageDeps, reminderTime, sendAppointmentMessages } from "./messages.server";

const SECRET = "appointment-messages-test-secret-0123456789";

let db: Database;
useMigratedTestDatabase("appointment_messages", (handle) => {
  db = handle.db;
});

beforeAll(async () => {
  await seedCatalog(db);
});

function fakes() {
  const smsProvider = recordingSms();
  const emailTransport = recordingEmail();
  const pushes: { to: string; text: string }[] = [];
  const deps: AppointmentMessageDeps = {
    db,
    sms: smsProvider,
    email: emailTransport,
    line: {
      push: async (to: string, messages: { type: string; text?: string }[]) => {
        pushes.push({ to, text: messages.map((m) => m.text ?? "").join("\n") });
        return { outcome: "sent", requestId: null };
      },
    } as unknown as LineMessagingClient,
    publicBaseUrl: "https://hanliving.example",
    secret: SECRET,
  };
  return { deps, sms: smsProvider.sent, emails: emailTransport.sent, pushes };
}

const book = (owner: Owner, date: string, time: string, now: Date) =>
  bookAppointment(
    db,
    owner,
    {
      storeId: "xinyi-flagship",
      kind: "consultation",
      date,
      time,
      materialIds: [],
      note: null,
      address: null,
      locale: "zh-TW",
      source: "web",
    },
    now,
  );

describe("a booking's messages", () => {
  it("confirms at once by SMS in the day, once; holds SMS 21:00–09:00 until 09:00", async () => {
    const m = await newMember(db);
    const noon = new Date("2026-12-07T04:00:00Z"); // 12:00 Taipei
    const booked = await book({ memberId: m.id, phone: m.phoneNumber }, "2026-12-20", "14:00", noon);
    const { deps, sms } = fakes();
    expect((await sendAppointmentMessages(deps, noon)).confirmations).toBeGreaterThanOrEqual(1);
    const mine = sms.filter((s) => s.to === m.phoneNumber);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.text).toContain(booked.reference);
    expect(mine[0]?.text).toContain("14:00");
    expect(mine[0]?.text).not.toMatch(/https?:/);
    await sendAppointmentMessages(deps, noon);
    expect(sms.filter((s) => s.to === m.phoneNumber)).toHaveLength(1);

    const night = new Date("2026-12-07T14:30:00Z"); // 22:30 Taipei
    const late = await newMember(db);
    await book({ memberId: late.id, phone: late.phoneNumber }, "2026-12-21", "14:00", night);
    await sendAppointmentMessages(deps, night);
    expect(sms.filter((s) => s.to === late.phoneNumber)).toHaveLength(0);
    await sendAppointmentMessages(deps, new Date("2026-12-08T00:59:00Z")); // 08:59
    expect(sms.filter((s) => s.to === late.phoneNumber)).toHaveLength(0);
    await sendAppointmentMessages(deps, new Date("2026-12-08T01:00:00Z")); // 09:00
    expect(sms.filter((s) => s.to === late.phoneNumber)).toHaveLength(1);
  });

  it("tries a message that failed again on the next pass, and sends it once", async () => {
    const m = await newMember(db);
    const noon = new Date("2026-12-09T04:00:00Z"); // 12:00 Taipei
    const booked = await book({ memberId: m.id, phone: m.phoneNumber }, "2026-12-24", "14:00", noon);
    const { deps, sms } = fakes();
    const send = deps.sms.send;
    let down = true;
    deps.sms.send = async (message) => {
      if (down && message.to === m.phoneNumber) throw new Error("provider down");
      return send(message);
    };
    await sendAppointmentMessages(deps, noon);
    expect(sms.filter((s) => s.to === m.phoneNumber)).toHaveLength(0);
    const [row] = await db.select().from(appointment).where(eq(appointment.id, booked.id));
    expect(row?.confirmationSentAt).toBeNull();
    down = false;
    const later = new Date("2026-12-09T04:01:00Z");
    await sendAppointmentMessages(deps, later);
    await sendAppointmentMessages(deps, new Date("2026-12-09T04:02:00Z"));
    const mine = sms.filter((s) => s.to === m.phoneNumber);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.idempotencyKey).toBe(`${booked.id}:confirmation`);
    const [after] = await db.select().from(appointment).where(eq(appointment.id, booked.id));
    expect(after?.confirmationSentAt?.toISOString()).toBe(later.toISOString());
  });

  it("goes by LINE when the member linked LINE and follows, at night too, with the page and the .ics links", async () => {
    const m = await newMember(db);
    const lineUserId = `U${m.id.replaceAll("-", "")}`;
    await db
      .insert(authAccount)
      .values({ id: `line-${m.id}`, accountId: lineUserId, providerId: "line", userId: m.userId });
    await db.insert(lineFriend).values({ lineUserId, following: true, changedAt: new Date() });
    const night = new Date("2026-12-07T15:00:00Z"); // 23:00 Taipei
    const booked = await book({ memberId: m.id, phone: m.phoneNumber }, "2026-12-22", "11:00", night);
    const { deps, sms, pushes } = fakes();
    await sendAppointmentMessages(deps, night);
    const push = pushes.find((p) => p.to === lineUserId);
    expect(push?.text).toContain(booked.reference);
    expect(push?.text).toContain(`/member-center/appointments/${booked.id}/calendar.ics`);
    expect(sms.filter((s) => s.to === m.phoneNumber)).toHaveLength(0);
  });

  it("reminds the day before from 10:00 Taipei, once, and not a booking made after that", async () => {
    const m = await newMember(db);
    const early = new Date("2026-12-07T02:00:00Z");
    const booked = await book({ memberId: m.id, phone: m.phoneNumber }, "2026-12-24", "15:30", early);
    expect(reminderTime(booked.startsAt, 10).toISOString()).toBe("2026-12-23T02:00:00.000Z");
    const { deps, sms } = fakes();
    await sendAppointmentMessages(deps, early); // the confirmation
    const before = new Date("2026-12-23T01:59:00Z"); // 09:59 the day before
    expect((await sendAppointmentMessages(deps, before)).reminders).toBe(0);
    const at = new Date("2026-12-23T02:00:00Z");
    await sendAppointmentMessages(deps, at);
    await sendAppointmentMessages(deps, new Date("2026-12-23T03:00:00Z"));
    const texts = sms.filter((s) => s.to === m.phoneNumber).map((s) => s.text);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain("明天");
    const [row] = await db.select().from(appointment).where(eq(appointment.id, booked.id));
    expect(row?.reminderSentAt?.toISOString()).toBe(at.toISOString());

    // Booked at 11:00 for the next day: the confirmation says it; no reminder.
    const other = await newMember(db);
    const eleven = new Date("2026-12-23T03:00:00Z");
    await book({ memberId: other.id, phone: other.phoneNumber }, "2026-12-24", "19:00", eleven);
    await sendAppointmentMessages(deps, eleven);
    await sendAppointmentMessages(deps, new Date("2026-12-23T05:00:00Z"));
    expect(sms.filter((s) => s.to === other.phoneNumber)).toHaveLength(1);
  });

  it("tells a guest by SMS where to change the booking in words: no member center, no link", async () => {
    const noon = new Date("2026-12-07T04:00:00Z");
    const phone = `+8869${String(Date.now()).slice(-8)}`;
    const booked = await book({ memberId: null, phone }, "2026-12-27", "11:00", noon);
    const { deps, sms } = fakes();
    await sendAppointmentMessages(deps, noon);
    const text = sms.find((s) => s.to === phone)?.text ?? "";
    expect(text).toContain(booked.reference);
    expect(text).toContain("查詢預約");
    expect(text).not.toContain("會員中心");
    expect(text).not.toMatch(/https?:/);
  });

  it("speaks the member's language: English for a member who chose it", async () => {
    const m = await newMember(db, { locale: "en" });
    const noon = new Date("2026-12-07T04:00:00Z");
    const booked = await book({ memberId: m.id, phone: m.phoneNumber }, "2026-12-26", "11:00", noon);
    const { deps, sms } = fakes();
    await sendAppointmentMessages(deps, noon);
    const text = sms.find((s) => s.to === m.phoneNumber)?.text ?? "";
    expect(text).toContain(`reference ${booked.reference}`);
    expect(text).toContain("Design consultation");
  });
});
