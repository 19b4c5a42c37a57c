import type { lineZhTW } from "./line.zh-TW";

export const lineEn = {
  "notice.lineSignupFailed": "LINE sign-up failed. Please try again.",
  "notice.lineNoIdToken": "lineLiffIdToken 不存在",
  "notice.lineLinked": "Your LINE account is linked",
  "notice.lineUnlinked": "Your LINE account is unlinked",
  "notice.lineLinkFailed": "Linking LINE failed. Please try again.",
  "notice.lineLinkTaken": "This LINE account is linked to another member",

  "line.login": "Log in with LINE",
  "line.signup": "Sign up with LINE",
  "line.or": "or",
  "line.signupOffer": "Not signed up with LINE yet?",

  "lineSignup.phoneTitle": "Verify your mobile number",
  "lineSignup.phoneLead": "You are signed in with LINE. Showrooms find members by mobile number, so please verify one.",
  "lineSignup.existingTitle": "This number belongs to a member",
  "lineSignup.existingBody":
    "You verified {phone}, and it belongs to an existing member account. Link this LINE account to that member and log in?",
  "lineSignup.linkSubmit": "Link LINE and log in",
  "lineSignup.useOtherPhone": "Use another number",

  "linkedLogins.title": "Ways to log in",
  "linkedLogins.lead": "Manage the ways you can log in to your member account.",
  "linkedLogins.phone": "Mobile number",
  "linkedLogins.email": "E-mail",
  "linkedLogins.line": "LINE",
  "linkedLogins.withPassword": "with your password",
  "linkedLogins.noPassword": "No password yet, so this cannot be used to log in",
  "linkedLogins.notSet": "Not set",
  "linkedLogins.lineLinked": "Linked ({date})",
  "linkedLogins.lineNotLinked": "Not linked",
  "linkedLogins.link": "Link LINE",
  "linkedLogins.unlink": "Unlink",
  "linkedLogins.lastLogin": "LINE is your only way to log in. Set a password before you unlink it.",
  "linkedLogins.lineUnavailable": "LINE login is not available at the moment.",
} as const satisfies Record<keyof typeof lineZhTW, string>;
