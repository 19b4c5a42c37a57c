import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

// Mirrors the URL table in PRODUCT.md §2. Every page is its own lazily loaded module
// under the one default layout.
export default [
  route("resources/locale", "routes/resources/locale.ts"),
  route("logout", "routes/resources/logout.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("media/:kind/:colours/:file", "routes/resources/media.ts"),
  ...prefix("auth/line", [
    route("start", "routes/auth/line-start.ts"),
    route("callback", "routes/auth/line-callback.ts"),
    route("liff", "routes/auth/line-liff.ts"),
  ]),
  // The staff console: its own layout, outside the public site (ADR 020).
  route("admin", "routes/admin/route.tsx", { id: "console" }, [
    route("login", "routes/admin/login.tsx"),
    route("verify", "routes/admin/verify.tsx"),
    route("enrol", "routes/admin/enrol.tsx"),
    route("invitation/:token", "routes/admin/invitation.tsx"),
    route("logout", "routes/admin/logout.ts"),
    layout("routes/admin/shell.tsx", { id: "console-shell" }, [
      index("routes/admin/index.tsx"),
      route("store", "routes/admin/store.tsx"),
      // The counter (ADR 022).
      ...prefix("counter", [
        index("routes/admin/counter/index.tsx"),
        route("member/:memberId", "routes/admin/counter/member.tsx"),
        route("member/:memberId/purchase", "routes/admin/counter/purchase.tsx"),
        route("refund", "routes/admin/counter/refund.tsx"),
        route("coupon", "routes/admin/counter/coupon.tsx"),
      ]),
      route("members/:memberId/adjust", "routes/admin/adjust.tsx"),
      route("approvals", "routes/admin/approvals.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("staff", "routes/admin/staff/index.tsx"),
      route("staff/invite", "routes/admin/staff/invite.tsx"),
      route("staff/:userId", "routes/admin/staff/member.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("*", "routes/admin/not-found.tsx"),
    ]),
  ]),
  layout("routes/_layout.tsx", [
    index("routes/home.tsx"),
    route("material-detail/:id", "routes/material-detail.tsx"),
    route("store-detail/:id", "routes/store-detail.tsx"),
    route("our-store", "routes/our-store.tsx"),
    route("materials", "routes/materials.tsx"),
    route("member-login", "routes/member-login.tsx"),
    ...prefix("member-center", [
      index("routes/member-center/index.tsx"),
      route("edit-info", "routes/member-center/edit-info.tsx"),
      route("verify-email", "routes/member-center/verify-email.tsx"),
      route("linked-logins", "routes/member-center/linked-logins.tsx"),
      route("change-phone", "routes/member-center/change-phone.tsx"),
      route("confirm-identity", "routes/member-center/confirm-identity.tsx"),
      route("security", "routes/member-center/security.tsx"),
      route("privacy", "routes/member-center/privacy.tsx"),
      route("privacy/export", "routes/member-center/privacy-export.ts"),
      route("delete-account", "routes/member-center/delete-account.tsx"),
      route("points", "routes/member-center/points.tsx"),
      route("card-token", "routes/member-center/card-token.ts"),
      route("coupons/:id/qr", "routes/member-center/coupon-qr.ts"),
    ]),
    ...prefix("signup", [
      route("phone-verification", "routes/signup/phone-verification.tsx"),
      route("password-setting", "routes/signup/password-setting.tsx"),
      route("create-member-info", "routes/signup/create-member-info.tsx"),
    ]),
    ...prefix("forget-password", [
      index("routes/forget-password/index.tsx"),
      route("email-verification", "routes/forget-password/email-verification.tsx"),
      route("phone-verification", "routes/forget-password/phone-verification.tsx"),
      route("new-password-setting", "routes/forget-password/new-password-setting.tsx"),
    ]),
    route("privacy", "routes/privacy.tsx"),
    route("terms", "routes/terms.tsx"),
    route("test-crud", "routes/test-crud.tsx"),
    route("dev/outbox", "routes/dev/outbox.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
