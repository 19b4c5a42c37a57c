import { href } from "react-router";

/**
 * The one typed place that builds internal links. Named routes from the specification
 * (member-center, member-login, signup-create-member-info) are here by those names.
 */
const MEMBER_CENTER = "/member-center";

export const links = {
  home: () => href("/"),
  stores: () => href("/our-store"),
  storeDetail: (id: string) => href("/store-detail/:id", { id }),
  materials: () => href("/materials"),
  materialDetail: (id: string) => href("/material-detail/:id", { id }),
  /** The login page. `back` is where to return after login, cleaned by safeRedirectPath. */
  "member-login": (back?: string, method?: "phone" | "email") => {
    const params = new URLSearchParams();
    if (method === "email") params.set("method", method);
    if (back !== undefined) params.set("redirectTo", safeRedirectPath(back, MEMBER_CENTER));
    const query = params.toString();
    return `${href("/member-login")}${query ? `?${query}` : ""}`;
  },
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
  admin: () => href("/admin"),
  adminLogin: () => href("/admin/login"),
  privacy: () => href("/privacy"),
  terms: () => href("/terms"),
  testCrud: () => href("/test-crud"),
  devOutbox: (filter: { to?: string; channel?: "sms" | "email" } = {}) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]).toString();
    return `${href("/dev/outbox")}${query ? `?${query}` : ""}`;
  },
  setLocale: () => href("/resources/locale"),
  // Quote lists (issue 37 part 4, ADR 047).
  memberQuotes: () => href("/member-center/quotes"),
  newQuote: () => href("/member-center/quotes/new"),
  memberQuote: (quoteId: string) => href("/member-center/quotes/:quoteId", { quoteId }),
  memberQuotePrint: (quoteId: string) => href("/member-center/quotes/:quoteId/print", { quoteId }),
  /** The booking page with the store and the design consultation chosen (from a quote's answer). */
  bookConsultation: (storeId: string) =>
    `${href("/appointments/book")}?${new URLSearchParams({ store: storeId, kind: "consultation" })}`,
  // Showroom appointments (issue 37).
  bookAppointment: () => href("/appointments/book"),
  memberAppointments: () => href("/member-center/appointments"),
  memberAppointment: (id: string) => href("/member-center/appointments/:id", { id }),
  memberAppointmentIcs: (id: string) => href("/member-center/appointments/:id/calendar.ics", { id }),
  /** A guest's booking by its link (app/domain/appointments/manage-link.server.ts makes the token). */
  guestAppointment: (token: string) => href("/appointments/manage/:token", { token }),
  findAppointment: () => href("/appointments/find"),
} as const;

/**
 * The query parameters React Router adds to its own data requests (`_routes` picks the loaders to
 * run; `_data` is the older spelling). They never belong in an address a person is sent to: a page
 * opened with `?_routes=…` runs only some of its loaders and fails.
 */
const FRAMEWORK_PARAMS = ["_routes", "_data"];

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

function isFrameworkParam([name, value]: [string, string]): boolean {
  // React Router marks a submission to an index route with a bare `?index`.
  return FRAMEWORK_PARAMS.includes(name) || (name === "index" && value === "");
}

function isSameSitePath(target: string): boolean {
  return (
    target.startsWith("/") && !target.startsWith("//") && !target.includes("\\") && !CONTROL_CHARACTERS.test(target)
  );
}

/**
 * The one check for every "come back here" address (login, LINE login, passkey login, identity
 * confirmation, language switch). Only a same-site path comes through (no open redirects);
 * control characters are refused too, because browsers drop tabs and newlines while parsing a URL,
 * so "/\t/evil.example" would become "//evil.example". What React Router adds to a data request
 * (a `.data` suffix, `_routes`, an empty `index`) is removed, so an address taken from a
 * client-side navigation leads to the page itself.
 */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || !isSameSitePath(target)) return fallback;
  const url = new URL(target, "http://same-site.invalid");
  if (url.origin !== "http://same-site.invalid") return fallback;
  let pathname = url.pathname;
  if (pathname.endsWith("/_.data") || pathname.endsWith("/_root.data"))
    pathname = pathname.replace(/_(root)?\.data$/, "");
  else pathname = pathname.replace(/\.data$/, "");
  const entries = [...url.searchParams.entries()];
  const search = entries.some(isFrameworkParam)
    ? `?${new URLSearchParams(entries.filter((entry) => !isFrameworkParam(entry)))}`.replace(/^\?$/, "")
    : url.search;
  const cleaned = `${pathname || "/"}${search}${url.hash}`;
  // Dot segments can fold "/.//evil.example" into "//evil.example": check the result again.
  return isSameSitePath(cleaned) ? cleaned : fallback;
}
