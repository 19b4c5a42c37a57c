import { href } from "react-router";

/**
 * The one typed place that builds internal links. Named routes from the specification
 * (member-center, member-login, signup-create-member-info) are here by those names.
 */
export const links = {
  home: () => href("/"),
  stores: () => href("/our-store"),
  storeDetail: (id: string) => href("/store-detail/:id", { id }),
  materials: () => href("/materials"),
  materialDetail: (id: string) => href("/material-detail/:id", { id }),
  "member-login": () => href("/member-login"),
  "member-center": () => href("/member-center"),
  editInfo: () => href("/member-center/edit-info"),
  memberPoints: (page?: number) => `${href("/member-center/points")}${page && page > 1 ? `?page=${page}` : ""}`,
  cardToken: () => href("/member-center/card-token"),
  couponQr: (id: string) => href("/member-center/coupons/:id/qr", { id }),
  verifyEmail: () => href("/member-center/verify-email"),
  linkedLogins: () => href("/member-center/linked-logins"),
  lineStart: () => href("/auth/line/start"),
  lineCallback: () => href("/auth/line/callback"),
  lineLiff: () => href("/auth/line/liff"),
  changePhone: () => href("/member-center/change-phone"),
  confirmIdentity: (redirectTo?: string) =>
    `${href("/member-center/confirm-identity")}${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`,
  security: () => href("/member-center/security"),
  memberPrivacy: () => href("/member-center/privacy"),
  memberDataExport: () => href("/member-center/privacy/export"),
  deleteAccount: () => href("/member-center/delete-account"),
  logout: () => href("/logout"),
  signupPhoneVerification: () => href("/signup/phone-verification"),
  signupPasswordSetting: () => href("/signup/password-setting"),
  "signup-create-member-info": () => href("/signup/create-member-info"),
  forgetPassword: () => href("/forget-password"),
  forgetPasswordEmail: () => href("/forget-password/email-verification"),
  forgetPasswordPhone: () => href("/forget-password/phone-verification"),
  forgetPasswordNew: () => href("/forget-password/new-password-setting"),
  admin: () => href("/admin/*", { "*": "" }),
  privacy: () => href("/privacy"),
  terms: () => href("/terms"),
  testCrud: () => href("/test-crud"),
  devOutbox: (filter: { to?: string; channel?: "sms" | "email" } = {}) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]).toString();
    return `${href("/dev/outbox")}${query ? `?${query}` : ""}`;
  },
  setLocale: () => href("/resources/locale"),
} as const;

/**
 * Only same-site paths may be redirect targets (no open redirects). Control characters are refused
 * too: browsers drop tabs and newlines while parsing a URL, so "/\t/evil.example" would become "//evil.example".
 */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (
    typeof target !== "string" ||
    !target.startsWith("/") ||
    target.startsWith("//") ||
    target.includes("\\") ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    /[\u0000-\u001f\u007f]/.test(target)
  ) {
    return fallback;
  }
  return target;
}
