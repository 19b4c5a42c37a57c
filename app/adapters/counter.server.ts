import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { CounterClerk } from "~/domain/counter/bookings.server";
import { oncePerForm } from "~/domain/counter/idempotency.server";
import { verifyScanPass } from "~/domain/counter/scan-pass.server";
import { LOYALTY_ERRORS, type LoyaltyErrorCode } from "~/domain/loyalty/errors";
import type { StaffActor } from "~/domain/staff/actor";
import { requirePermission } from "~/domain/staff/guard.server";
import type { Permission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import type { MessageKey } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { consoleAudit } from "./console.server";
import { type ConsoleFailureOptions, consoleFailure } from "./console-failure.server";
import { getApp } from "./context.server";

/**
 * The counter's HTTP side (ADR 022): who acts at which store, the form read once, a booking once per form key, and
 * how the engine's refusals read at the counter.
 */

/**
 * The staff member, if they hold `permission` at the store they are working at now; otherwise the
 * console's 403 (or the login for a visitor). Without a current store (an admin who has not chosen
 * one), `storeId` is null and the page asks for one; actions refuse with `requireStore`.
 */
export function counterActor(
  context: Readonly<RouterContextProvider>,
  permission: Permission,
): { actor: StaffActor; storeId: string | null } {
  const actor = requirePermission(context, permission);
  const storeId = actor.currentStoreId;
  if (storeId !== null) requirePermission(actor, permission, { storeId });
  return { actor, storeId };
}

/** For actions: the store the booking happens at; a 409 when no store was chosen. */
export function requireStore(storeId: string | null): string {
  if (storeId === null) throw data({ code: "store_required" }, { status: 409, statusText: "Choose a store" });
  return storeId;
}

/** A counter page that works at the clerk's store: the store, the database, the reader's words, the clock. */
export function counterPage(context: Readonly<RouterContextProvider>, request: Request, permission: Permission) {
  const { actor, storeId } = counterActor(context, permission);
  const store = requireStore(storeId);
  const app = getApp(context);
  return { actor, store, app, db: app.db, t: serverT(request), now: requestNow(request, app.config) };
}

/** A booking action at the counter: the page's context, who books from where, and the form as sent. */
export async function counterAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  permission: Permission,
) {
  const page = counterPage(context, request, permission);
  const clerk: CounterClerk = {
    staffUserId: page.actor.userId,
    storeId: page.store,
    audit: consoleAudit(context, request),
  };
  return { ...page, clerk, form: await readForm(request) };
}

export type CounterDesk = Pick<Awaited<ReturnType<typeof counterAction>>, "actor" | "db" | "t" | "form">;

/** The clerk asking for a member's code to confirm a spend of points, at their store (ADR 052). */
export function spendAsker(desk: { actor: StaffActor; store: string; clerk: CounterClerk }) {
  return { storeId: desk.store, requester: `staff:${desk.actor.userId}`, audit: desk.clerk.audit };
}

/**
 * The card's scan pass (ADR 052) if it was signed for this member, this store and this clerk in the last 30
 * minutes; null otherwise (the member was found by a typed phone or number: a spend needs their code).
 */
export function scanPassOf(
  page: { actor: StaffActor; store: string; app: { config: { secrets: { session: string } } }; now: Date },
  memberId: string,
  pass: unknown,
): string | null {
  const subject = { memberId, storeId: page.store, userId: page.actor.userId };
  return verifyScanPass(page.app.config.secrets.session, pass, subject, page.now) ? (pass as string) : null;
}

/** Where the purchase form shows the engine's refusals of a spend of points and of the member's code. */
export const SPEND_FIELDS = {
  invalid_points: "pointsToSpend",
  points_exceed_balance: "pointsToSpend",
  points_exceed_share: "pointsToSpend",
  spend_code_required: "spendCode",
  spend_code_wrong: "spendCode",
  spend_code_expired: "spendCode",
  spend_code_mismatch: "spendCode",
  spend_code_used: "spendCode",
  spend_code_locked: "spendCode",
  spend_code_send_limit: "spendCode",
} as const;

/**
 * A counter form through `parseForm`. The fields' messages come first; only when they are right does an expired
 * form key say so, above the form (the person fixes what they see, then reloads).
 */
export function counterForm<S extends z.ZodType>(schema: S, form: FormData) {
  const parsed = parseForm(schema, form);
  if (parsed.ok) return parsed;
  const { formKey, ...errors } = parsed.failure.errors;
  const expired = formKey && Object.keys(errors).length === 0 ? { formError: formKey[0] } : {};
  return { ok: false as const, answer: formFailure({ ...parsed.failure, errors, ...expired }) };
}

/** The counter's wording of an engine refusal (some say it the way a clerk repeats it to a member). */
const COUNTER_WORDING: Partial<Record<LoyaltyErrorCode, MessageKey>> = {
  card_token_expired: "console.counter.error.tokenExpired",
  card_token_forged: "console.counter.error.tokenForged",
  card_token_malformed: "console.counter.error.tokenForged",
  // The offline member card (ADR 043).
  card_token_future: "console.counter.error.tokenFuture",
  card_token_replayed: "console.counter.error.tokenReplayed",
  card_device_revoked: "console.counter.error.deviceRevoked",
  card_device_unknown: "console.counter.error.tokenForged",
  member_not_found: "console.counter.error.memberNotFound",
  member_disabled: "console.counter.error.memberDisabled",
  purchase_not_found: "console.counter.error.receiptNotFound",
  receipt_conflict: "console.counter.error.receiptConflict",
  coupon_not_found: "console.counter.error.couponNotFound",
  coupon_used: "console.counter.error.couponUsed",
  coupon_expired: "console.counter.error.couponExpired",
  coupon_cancelled: "console.counter.error.couponCancelled",
  coupon_revoked: "console.counter.error.couponRevoked",
  coupon_wrong_store: "console.counter.error.couponWrongStore",
  refund_exceeds_purchase: "console.counter.error.refundExceeds",
};

/**
 * An engine refusal as the counter page's answer (`consoleFailure` with the counter's wording), the values as typed
 * kept (but the form's key); anything else is thrown on. `field`: every code's message goes beside that field.
 */
export function counterFailure<X extends Record<string, unknown> = Record<never, never>>(
  error: unknown,
  desk: Pick<CounterDesk, "t"> & { form?: FormData },
  { field, ...options }: ConsoleFailureOptions & { answer?: X; field?: string } = {},
) {
  const values = desk.form ? formValues(desk.form, ["formKey"]) : undefined;
  const fields = field ? Object.fromEntries(Object.keys(LOYALTY_ERRORS).map((code) => [code, field])) : undefined;
  return consoleFailure(error, null, desk.t, { wording: COUNTER_WORDING, values, fields, ...options });
}

/** A refusal the counter words itself: the line above the form, the values as typed kept. */
export function counterRefusal(desk: Pick<CounterDesk, "t" | "form">, message: MessageKey, status: number) {
  return data(
    { errors: {} as Record<string, string[]>, values: formValues(desk.form, ["formKey"]), formError: desk.t(message) },
    { status },
  );
}

/**
 * One booking per form key (ADR 022): `run` books once; a double tap or a retry answers the first result; the same
 * key sent with other details, or while the first still runs, is refused above the form; an engine refusal frees
 * the key and reads as `failure` says.
 */
export async function bookOnce<T, A, X extends Record<string, unknown> = Record<never, never>>(
  desk: CounterDesk,
  booking: {
    action: string;
    key: string;
    fields: Record<string, unknown>;
    run: () => Promise<T>;
    answer: (value: T) => A;
    failure?: ConsoleFailureOptions & { answer?: X };
  },
) {
  try {
    const { action, key, fields, run } = booking;
    const outcome = await oncePerForm(desk.db, { userId: desk.actor.userId, key, action, fields }, run);
    if (outcome.kind === "reused") return counterRefusal(desk, "console.counter.form.stale", 409);
    if (outcome.kind === "in_progress") return counterRefusal(desk, "console.counter.form.inProgress", 409);
    return booking.answer(outcome.value);
  } catch (error) {
    return counterFailure(error, desk, booking.failure);
  }
}

/** The fields of a GET form (the address's query), read as `parseForm` reads a posted one. */
export function queryForm(request: Request): FormData {
  const form = new FormData();
  for (const [name, value] of new URL(request.url).searchParams) form.append(name, value);
  return form;
}
