import type { Database } from "@platform/db/client";
import { authUser, member } from "@platform/db/schema";
import { and, eq, ne, notExists } from "drizzle-orm";
import {
  confirmMemberEmail,
  findMemberByEmail,
  findMemberByPhone,
  findMemberByUserId,
  isEmailTaken,
} from "../members/members.server";
import type { CodePurpose } from "../messaging/types";
import { type AuthDeps, isPlaceholderEmail, type Locale, placeholderEmail } from "./flows.server";
import {
  CODE_POLICY,
  type IssueResult,
  issueCode,
  sendLimits,
  type VerifyResult,
  verifyCode,
} from "./one-time-codes.server";
import { claimLimits } from "./rate-limits.server";

/**
 * One code-verification flow for every purpose (Epic Stack's prepareVerification → validateRequest →
 * handleVerification is the model). The steps are the same everywhere:
 *
 *   send:   a purpose's own check (is the number a member's? is it taken?), then the code with its
 *           cooldown and limits (issueCode), then the message in the purpose's words;
 *   verify: the code with its 5 tries (verifyCode), then what the purpose does with a proven target
 *           (create the sign-up user, move the phone, confirm the e-mail, hand out a reset ticket).
 *
 * Routes call `requestVerification` and `completeVerification` with the flow and its inputs; the
 * handlers below are the per-flow parts. Every answer that could tell whether an account exists
 * costs what a send costs (ADR 018).
 */

export type VerificationPurpose =
  | "signup"
  | "line-signup"
  | "reset-password"
  | "verify-email"
  | "change-email"
  | "change-phone"
  | "reauth";

/** The code purpose each flow binds its codes to: a code only works for what it was sent for. */
const CODE_PURPOSE: Record<VerificationPurpose, CodePurpose> = {
  signup: "signup",
  // A LINE sign-up verifies its phone exactly like a phone sign-up.
  "line-signup": "signup",
  "reset-password": "reset-password",
  "verify-email": "verify-email",
  "change-email": "change-email",
  "change-phone": "change-phone",
  reauth: "reauth",
};

const minutes = CODE_POLICY.validMinutes;

/** The text message of each purpose sent by SMS. */
const SMS_TEXT: Record<
  "signup" | "reset-password" | "change-phone" | "reauth",
  Record<Locale, (code: string) => string>
> = {
  signup: {
    "zh-TW": (code) => `您的會員註冊驗證碼為 ${code}，${minutes} 分鐘內有效。請勿將驗證碼告訴任何人。`,
    en: (code) => `Your sign-up code is ${code}, valid for ${minutes} minutes. Never share it.`,
  },
  "reset-password": {
    "zh-TW": (code) => `您的密碼重設驗證碼為 ${code}，${minutes} 分鐘內有效。若非本人操作，請忽略本簡訊。`,
    en: (code) => `Your password reset code is ${code}, valid for ${minutes} minutes. Ignore this if it was not you.`,
  },
  "change-phone": {
    "zh-TW": (code) => `您變更會員手機號碼的驗證碼為 ${code}，${minutes} 分鐘內有效。若非本人操作，請忽略本簡訊。`,
    en: (code) => `Your code to change your member phone number is ${code}, valid for ${minutes} minutes.`,
  },
  reauth: {
    "zh-TW": (code) => `您的身分確認驗證碼為 ${code}，${minutes} 分鐘內有效。若非本人操作，請勿提供給任何人。`,
    en: (code) => `Your confirmation code is ${code}, valid for ${minutes} minutes. Never share it.`,
  },
};

/** The reset code's text in the welcome variant (a member moved in from another system sets a first password). */
const WELCOME_SMS_TEXT: Record<Locale, (code: string) => string> = {
  "zh-TW": (code) =>
    `歡迎加入漢生活會員！您設定密碼的驗證碼為 ${code}，${minutes} 分鐘內有效。若非本人操作，請忽略本簡訊。`,
  en: (code) => `Welcome to Han Living! Your code to set your password is ${code}, valid for ${minutes} minutes.`,
};

// ─── The shared steps ───────────────────────────────────────────────────────────────────────────

type SendInput = {
  purpose: VerificationPurpose;
  target: string;
  channel: "sms" | "email";
  ip: string | null;
  locale: Locale;
  /** False for answers that must not reveal an account: same limits, a decoy code, nothing sent. */
  deliver?: boolean;
  /** Also counts against this member's own send limits (a new number or address the member typed). */
  memberUserId?: string;
  /** Other words for the text message than the purpose's (the welcome variant of a reset). */
  smsText?: Record<Locale, (code: string) => string>;
  /** Other words for the e-mail than the purpose's (the welcome variant of a reset). */
  emailWording?: "welcome";
};

/** Creates the purpose's code (cooldown and limits, atomically) and sends it in the purpose's words. */
async function sendCode(deps: AuthDeps, input: SendInput): Promise<IssueResult> {
  const deliver = input.deliver !== false;
  const codePurpose = CODE_PURPOSE[input.purpose];
  const issued = await issueCode(deps.db, {
    purpose: codePurpose,
    target: input.target,
    ip: input.ip,
    secret: deps.secret,
    deliver,
    memberUserId: input.memberUserId,
  });
  if (!issued.ok || !deliver) return issued;
  if (input.channel === "email") {
    await deps.messaging.sendEmail({
      to: input.target,
      locale: input.locale,
      template: "one-time-code",
      data: {
        code: issued.code,
        purpose: codePurpose,
        minutes,
        ...(input.emailWording ? { wording: input.emailWording } : {}),
      },
    });
  } else {
    const words = input.smsText ?? SMS_TEXT[codePurpose as keyof typeof SMS_TEXT];
    await deps.messaging.sendSms({ to: input.target, text: words[input.locale](issued.code) });
  }
  return issued;
}

/** Checks (and on success consumes) the purpose's code for a target. */
export function checkCode(
  deps: Pick<AuthDeps, "db" | "secret">,
  input: { purpose: VerificationPurpose; target: string; code: string },
  now = new Date(),
): Promise<VerifyResult> {
  return verifyCode(
    deps.db,
    { purpose: CODE_PURPOSE[input.purpose], target: input.target, code: input.code, secret: deps.secret },
    now,
  );
}

type LimitedAnswer = { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * An answer that tells whether a number or address belongs to somebody ("already a member",
 * "taken") costs what a code send costs: the target's, the IP's (and the member's) send limits.
 */
async function atSendCost<A>(
  deps: Pick<AuthDeps, "db">,
  input: { target: string; ip: string | null; memberUserId?: string },
  answer: A,
): Promise<A | LimitedAnswer> {
  const counted = await claimLimits(deps.db, sendLimits(input.target, input.ip, input.memberUserId));
  return counted.allowed ? answer : { ok: false, reason: "rate_limited", retryAfterSeconds: counted.retryAfterSeconds };
}

// ─── Sign-up (phone) ────────────────────────────────────────────────────────────────────────────

export type SignupCodeResult = IssueResult | { ok: false; reason: "already_member" };

/**
 * Sends a sign-up code to a Taiwan mobile number, unless the number already belongs to a member.
 * "Already a member" costs what a code send costs (the caller has checked the captcha; the number's
 * and the IP's send limits are counted here first), so nobody can test numbers for free.
 */
export async function requestSignupCode(
  deps: AuthDeps,
  input: { phoneNumber: string; ip: string | null; locale: Locale },
): Promise<SignupCodeResult> {
  if (await findMemberByPhone(deps.db, input.phoneNumber)) {
    return atSendCost(deps, { target: input.phoneNumber, ip: input.ip }, { ok: false, reason: "already_member" });
  }
  return sendCode(deps, { purpose: "signup", target: input.phoneNumber, channel: "sms", ...input });
}

export type SignupVerifyResult =
  | { ok: true; userId: string }
  | Exclude<VerifyResult, { ok: true }>
  | { ok: false; reason: "already_member" };

/**
 * Verifies the sign-up code and returns the user to sign in: a new user with the verified phone,
 * or the user of an abandoned sign-up for that number (resumable). No member row yet: step 3
 * creates it.
 */
export async function verifySignupCode(
  deps: AuthDeps,
  input: { phoneNumber: string; code: string },
): Promise<SignupVerifyResult> {
  const verified = await checkCode(deps, { purpose: "signup", target: input.phoneNumber, code: input.code });
  if (!verified.ok) return verified;
  if (await findMemberByPhone(deps.db, input.phoneNumber)) return { ok: false, reason: "already_member" };
  const [existing] = await deps.db
    .select({ id: authUser.id })
    .from(authUser)
    .where(eq(authUser.phoneNumber, input.phoneNumber))
    .limit(1);
  if (existing) return { ok: true, userId: existing.id };
  const ctx = await deps.auth.$context;
  const user = await ctx.internalAdapter.createUser(
    {
      name: "",
      email: placeholderEmail(input.phoneNumber),
      emailVerified: false,
      phoneNumber: input.phoneNumber,
      phoneNumberVerified: true,
    },
    { method: "phone-number" },
  );
  return { ok: true, userId: user.id };
}

// ─── Sign-up (LINE): step 3 verifies a phone too ────────────────────────────────────────────────

/** Sends the code for the phone of a LINE sign-up (a member's number may later link instead). */
export function requestLineSignupCode(
  deps: AuthDeps,
  input: { phoneNumber: string; ip: string | null; locale: Locale },
): Promise<IssueResult> {
  return sendCode(deps, { purpose: "line-signup", target: input.phoneNumber, channel: "sms", ...input });
}

export type LineSignupVerifyResult =
  | { ok: true; existingMemberUserId: string | null }
  | Exclude<VerifyResult, { ok: true }>;

/**
 * Checks the code of a LINE sign-up's phone. A number that is no member's becomes this user's
 * phone, and an abandoned phone sign-up holding it is removed in the same transaction; a member's
 * number is only returned, for the offer to link the LINE login to that member.
 */
export async function verifyLineSignupCode(
  deps: AuthDeps,
  input: { userId: string; phoneNumber: string; code: string },
): Promise<LineSignupVerifyResult> {
  const verified = await checkCode(deps, { purpose: "line-signup", target: input.phoneNumber, code: input.code });
  if (!verified.ok) return verified;
  const existing = await findMemberByPhone(deps.db, input.phoneNumber);
  if (existing) return { ok: true, existingMemberUserId: existing.userId };
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(authUser)
      .where(
        and(
          eq(authUser.phoneNumber, input.phoneNumber),
          notExists(tx.select({ id: member.id }).from(member).where(eq(member.userId, authUser.id))),
        ),
      );
    await tx
      .update(authUser)
      .set({ phoneNumber: input.phoneNumber, phoneNumberVerified: true, updatedAt: new Date() })
      .where(eq(authUser.id, input.userId));
  });
  return { ok: true, existingMemberUserId: null };
}

// ─── Forgot password ────────────────────────────────────────────────────────────────────────────

export type ResetChannel = "phone" | "email";

async function memberByTarget(deps: Pick<AuthDeps, "db">, channel: ResetChannel, target: string) {
  return channel === "phone" ? findMemberByPhone(deps.db, target) : findMemberByEmail(deps.db, target);
}

/**
 * Sends a reset code when the phone number or e-mail belongs to a member; for anything else the
 * same cooldown and limits apply and the same answer comes back, but nothing is sent. An unknown
 * target gets a decoy code (issueCode `deliver: false`) with the same tries and expiry, so every
 * later step (wrong code, too many tries, expired) answers alike too.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: {
    channel: ResetChannel;
    target: string;
    ip: string | null;
    locale: Locale;
    /** The welcome variant (an imported member's first password): other words, the same answers. */
    welcome?: boolean;
  },
): Promise<IssueResult> {
  const found = await memberByTarget(deps, input.channel, input.target);
  const issued = await sendCode(deps, {
    purpose: "reset-password",
    target: input.target,
    channel: input.channel === "phone" ? "sms" : "email",
    ip: input.ip,
    locale: input.locale,
    deliver: Boolean(found),
    smsText: input.welcome ? WELCOME_SMS_TEXT : undefined,
    emailWording: input.welcome ? "welcome" : undefined,
  });
  return issued.ok ? { ok: true, code: "", expiresAt: issued.expiresAt } : issued;
}

export type ResetVerifyResult = { ok: true; userId: string } | Exclude<VerifyResult, { ok: true }>;

export async function verifyPasswordReset(
  deps: AuthDeps,
  input: { channel: ResetChannel; target: string; code: string },
): Promise<ResetVerifyResult> {
  const verified = await checkCode(deps, { purpose: "reset-password", target: input.target, code: input.code });
  if (!verified.ok) return verified;
  const found = await memberByTarget(deps, input.channel, input.target);
  return found ? { ok: true, userId: found.userId } : { ok: false, reason: "invalid" };
}

// ─── E-mail: a member's first address or a change of it ────────────────────────────────────────

/**
 * A pending address is either a member's first e-mail (sign-up, "verify-email") or a change of a
 * verified one (edit-info, "change-email"): the wording of the e-mail differs, the flow does not.
 * Both sides derive the purpose from the member row, so a code only works for what it was sent for.
 */
export function emailCodePurpose(current: { email: string | null }): "verify-email" | "change-email" {
  return current.email ? "change-email" : "verify-email";
}

/** Sends a code to a member's new (pending) e-mail address. */
export function sendEmailVerification(
  deps: AuthDeps,
  input: {
    email: string;
    ip: string | null;
    locale: Locale;
    purpose?: "verify-email" | "change-email";
    /** Also counts the send against this member's own limits (a new address the member typed). */
    memberUserId?: string;
  },
): Promise<IssueResult> {
  return sendCode(deps, { ...input, purpose: input.purpose ?? "verify-email", target: input.email, channel: "email" });
}

type TakenAnswer = { ok: false; reason: "taken" } | LimitedAnswer;

/** Whether the user may take this e-mail address (sign-up step 3, edit-info); "taken" costs a send. */
export async function checkEmailAvailable(
  deps: Pick<AuthDeps, "db">,
  input: { userId: string; email: string; ip: string | null },
): Promise<{ ok: true } | TakenAnswer> {
  if (!(await isEmailTaken(deps.db, input.email, input.userId))) return { ok: true };
  return atSendCost(deps, { target: input.email, ip: input.ip, memberUserId: input.userId }, {
    ok: false,
    reason: "taken",
  } as const);
}

export type EmailChangeResult = IssueResult | { ok: false; reason: "taken" | "unchanged" };

/** Parks the new address as pending and sends it a code (/member-center/verify-email finishes). */
export async function requestEmailChange(
  deps: AuthDeps,
  input: { userId: string; email: string; ip: string | null; locale: Locale },
): Promise<EmailChangeResult> {
  const email = input.email.toLowerCase();
  const current = await findMemberByUserId(deps.db, input.userId);
  if (!current) throw new Error("requestEmailChange: no member for the session's user");
  if (current.email === email) return { ok: false, reason: "unchanged" };
  const available = await checkEmailAvailable(deps, { userId: input.userId, email, ip: input.ip });
  if (!available.ok) return available;
  const sent = await sendEmailVerification(deps, {
    email,
    ip: input.ip,
    locale: input.locale,
    purpose: emailCodePurpose(current),
    memberUserId: input.userId,
  });
  if (sent.ok) {
    await deps.db.update(member).set({ pendingEmail: email, updatedAt: new Date() }).where(eq(member.id, current.id));
  }
  return sent;
}

/**
 * Checks the code for the member's pending e-mail; on success it becomes their e-mail and a login.
 * When it replaces a verified address, the old address is told (a hijacked account is noticed).
 */
export async function confirmEmailVerification(
  deps: AuthDeps,
  input: { userId: string; code: string; locale?: Locale },
): Promise<VerifyResult | { ok: false; reason: "no_pending" | "taken" }> {
  const found = await findMemberByUserId(deps.db, input.userId);
  const email = found?.pendingEmail;
  if (!found || !email) return { ok: false, reason: "no_pending" };
  const verified = await checkCode(deps, { purpose: emailCodePurpose(found), target: email, code: input.code });
  if (!verified.ok) return verified;
  if (await isEmailTaken(deps.db, email, input.userId)) return { ok: false, reason: "taken" };
  await confirmMemberEmail(deps.db, input.userId, email);
  if (found.email && found.email !== email) {
    await deps.messaging.sendEmail({
      to: found.email,
      locale: input.locale ?? "zh-TW",
      template: "email-changed",
      data: { newEmail: email },
    });
  }
  return { ok: true };
}

/** Withdraws an e-mail that was given but never verified (the member emptied the field). */
export async function clearPendingEmail(db: Database, userId: string): Promise<void> {
  await db.update(member).set({ pendingEmail: null, updatedAt: new Date() }).where(eq(member.userId, userId));
}

// ─── Phone change ───────────────────────────────────────────────────────────────────────────────

/** A phone number is taken when another member or another login already has it. */
export async function isPhoneTaken(deps: Pick<AuthDeps, "db">, phoneNumber: string, exceptUserId: string) {
  const [m] = await deps.db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.phoneNumber, phoneNumber), ne(member.userId, exceptUserId)))
    .limit(1);
  if (m) return true;
  const [u] = await deps.db
    .select({ id: authUser.id })
    .from(authUser)
    .where(and(eq(authUser.phoneNumber, phoneNumber), ne(authUser.id, exceptUserId)))
    .limit(1);
  return Boolean(u);
}

export type PhoneChangeResult = IssueResult | { ok: false; reason: "taken" | "unchanged" };

/** Sends a code by SMS to the new number (the change happens in confirmPhoneChange). */
export async function requestPhoneChange(
  deps: AuthDeps,
  input: { userId: string; phoneNumber: string; ip: string | null; locale: Locale },
): Promise<PhoneChangeResult> {
  const current = await findMemberByUserId(deps.db, input.userId);
  if (!current) throw new Error("requestPhoneChange: no member for the session's user");
  if (current.phoneNumber === input.phoneNumber) return { ok: false, reason: "unchanged" };
  const sendCost = { target: input.phoneNumber, ip: input.ip, memberUserId: input.userId };
  if (await isPhoneTaken(deps, input.phoneNumber, input.userId)) {
    return atSendCost(deps, sendCost, { ok: false, reason: "taken" } as const);
  }
  return sendCode(deps, { purpose: "change-phone", channel: "sms", locale: input.locale, ...sendCost });
}

/** Checks the code sent to the new number; on success it is the member's phone and phone login. */
export async function confirmPhoneChange(
  deps: Pick<AuthDeps, "db" | "secret">,
  input: { userId: string; phoneNumber: string; code: string },
): Promise<VerifyResult | { ok: false; reason: "taken" }> {
  const verified = await checkCode(deps, { purpose: "change-phone", target: input.phoneNumber, code: input.code });
  if (!verified.ok) return verified;
  if (await isPhoneTaken(deps, input.phoneNumber, input.userId)) return { ok: false, reason: "taken" };
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(member)
      .set({ phoneNumber: input.phoneNumber, updatedAt: now })
      .where(eq(member.userId, input.userId));
    const [user] = await tx.select({ email: authUser.email }).from(authUser).where(eq(authUser.id, input.userId));
    await tx
      .update(authUser)
      .set({
        phoneNumber: input.phoneNumber,
        phoneNumberVerified: true,
        // The phone-only placeholder follows the number, so the old number can sign up again.
        ...(user && isPlaceholderEmail(user.email) ? { email: placeholderEmail(input.phoneNumber) } : {}),
        updatedAt: now,
      })
      .where(eq(authUser.id, input.userId));
  });
  return { ok: true };
}

// ─── "Is it really you?" ────────────────────────────────────────────────────────────────────────

/**
 * Sends a confirmation code by SMS to the member's own number (never to a number from the
 * request). proveIdentity (identity.server.ts) checks it, with the member's failure budget.
 */
export function sendIdentityCode(
  deps: AuthDeps,
  input: { phoneNumber: string; ip: string | null; locale: Locale },
): Promise<IssueResult> {
  return sendCode(deps, { purpose: "reauth", target: input.phoneNumber, channel: "sms", ...input });
}

// ─── Dispatch by flow ───────────────────────────────────────────────────────────────────────────

/** What a route asks for when a code should go out: the flow and that flow's inputs. */
export type VerificationRequest =
  | ({ flow: "signup" } & Parameters<typeof requestSignupCode>[1])
  | ({ flow: "line-signup" } & Parameters<typeof requestLineSignupCode>[1])
  | ({ flow: "reset-password" } & Parameters<typeof requestPasswordReset>[1])
  /** A code (again) to the member's pending address. */
  | ({ flow: "email" } & Parameters<typeof sendEmailVerification>[1])
  /** A new address the member typed: parked as pending, then a code. */
  | ({ flow: "change-email" } & Parameters<typeof requestEmailChange>[1])
  | ({ flow: "change-phone" } & Parameters<typeof requestPhoneChange>[1])
  | ({ flow: "reauth" } & Parameters<typeof sendIdentityCode>[1]);

type RequestOutcome<F extends VerificationRequest["flow"]> = {
  signup: SignupCodeResult;
  "line-signup": IssueResult;
  "reset-password": IssueResult;
  email: IssueResult;
  "change-email": EmailChangeResult;
  "change-phone": PhoneChangeResult;
  reauth: IssueResult;
}[F];

/** Step 1 of every flow: the flow's own check, then the code, then the message. */
export function requestVerification<R extends VerificationRequest>(
  deps: AuthDeps,
  request: R,
): Promise<RequestOutcome<R["flow"]>>;
export function requestVerification(
  deps: AuthDeps,
  request: VerificationRequest,
): Promise<RequestOutcome<VerificationRequest["flow"]>> {
  switch (request.flow) {
    case "signup":
      return requestSignupCode(deps, request);
    case "line-signup":
      return requestLineSignupCode(deps, request);
    case "reset-password":
      return requestPasswordReset(deps, request);
    case "email":
      return sendEmailVerification(deps, request);
    case "change-email":
      return requestEmailChange(deps, request);
    case "change-phone":
      return requestPhoneChange(deps, request);
    case "reauth":
      return sendIdentityCode(deps, request);
  }
}

/** What a route submits with a typed code: the flow and that flow's inputs. */
export type VerificationSubmission =
  | ({ flow: "signup" } & Parameters<typeof verifySignupCode>[1])
  | ({ flow: "line-signup" } & Parameters<typeof verifyLineSignupCode>[1])
  | ({ flow: "reset-password" } & Parameters<typeof verifyPasswordReset>[1])
  | ({ flow: "email" } & Parameters<typeof confirmEmailVerification>[1])
  | ({ flow: "change-phone" } & Parameters<typeof confirmPhoneChange>[1]);

type SubmissionOutcome<F extends VerificationSubmission["flow"]> = {
  signup: SignupVerifyResult;
  "line-signup": LineSignupVerifyResult;
  "reset-password": ResetVerifyResult;
  email: Awaited<ReturnType<typeof confirmEmailVerification>>;
  "change-phone": Awaited<ReturnType<typeof confirmPhoneChange>>;
}[F];

/** Step 2 of every flow: the code with its tries, then what the flow does with the proof. */
export function completeVerification<S extends VerificationSubmission>(
  deps: AuthDeps,
  submission: S,
): Promise<SubmissionOutcome<S["flow"]>>;
export function completeVerification(
  deps: AuthDeps,
  submission: VerificationSubmission,
): Promise<SubmissionOutcome<VerificationSubmission["flow"]>> {
  switch (submission.flow) {
    case "signup":
      return verifySignupCode(deps, submission);
    case "line-signup":
      return verifyLineSignupCode(deps, submission);
    case "reset-password":
      return verifyPasswordReset(deps, submission);
    case "email":
      return confirmEmailVerification(deps, submission);
    case "change-phone":
      return confirmPhoneChange(deps, submission);
  }
}
