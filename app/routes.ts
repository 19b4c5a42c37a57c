import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

// Mirrors the URL table in PRODUCT.md §2. Every page is its own lazily loaded module
// under the one default layout.
export default [
  route("resources/locale", "routes/resources/locale.ts"),
  route("logout", "routes/resources/logout.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("media/:kind/:colours/:file", "routes/resources/media.ts"),
  // The offline member card's script, service worker and manifest (ADR 043): no login, no terms gate.
  route("member-center/card/app.js", "routes/member-center/card/script.ts"),
  route("member-center/card/sw.js", "routes/member-center/card/worker.ts"),
  route("member-center/card/manifest.webmanifest", "routes/member-center/card/manifest.ts"),
  // A quote as a printable page (issue 37 part 4, ADR 047): the document alone, without the site's header.
  route("member-center/quotes/:quoteId/print", "routes/member-center/quotes/print.tsx"),
  ...prefix("auth/line", [
    route("start", "routes/auth/line-start.ts"),
    route("callback", "routes/auth/line-callback.ts"),
    route("liff", "routes/auth/line-liff.ts"),
  ]),
  // The staff console: its own layout, outside the public site (ADR 020).
  route("admin", "routes/admin/route.tsx", { id: "console" }, [
    route("login", "routes/admin/login/index.tsx"),
    route("verify", "routes/admin/verify/index.tsx"),
    route("enrol", "routes/admin/enrol/index.tsx"),
    route("invitation/:token", "routes/admin/invitation/invitation.tsx"),
    route("logout", "routes/admin/logout/index.ts"),
    // A draft as the public page renders it (ADR 027): outside the shell, like the site.
    route("stores/:storeId/preview", "routes/admin/stores/preview.tsx"),
    // A quote as a printable page (issue 37 part 4, ADR 047): outside the shell, like the preview.
    route("quotes/:quoteId/print", "routes/admin/quotes/print.tsx"),
    layout("routes/admin/shell.tsx", { id: "console-shell" }, [
      index("routes/admin/dashboard/index.tsx"),
      route("dashboard/export", "routes/admin/dashboard/export.ts"),
      // The clerk on the sale: sales per clerk and a consultant's members (issue 36, ADR 042).
      route("reports", "routes/admin/reports/index.tsx"),
      route("store", "routes/admin/store/index.tsx"),
      // The counter (ADR 022).
      ...prefix("counter", [
        index("routes/admin/counter/index.tsx"),
        route("member/:memberId", "routes/admin/counter/member.tsx"),
        route("member/:memberId/purchase", "routes/admin/counter/purchase.tsx"),
        route("member/:memberId/samples", "routes/admin/counter/samples.tsx"),
        route("refund", "routes/admin/counter/refund.tsx"),
        route("coupon", "routes/admin/counter/coupon.tsx"),
      ]),
      // Showroom appointments: the list, one appointment, the follow-ups (issue 37, ADR 045).
      route("appointments", "routes/admin/appointments/index.tsx"),
      route("appointments/follow-ups", "routes/admin/appointments/follow-ups.tsx"),
      route("appointments/:appointmentId", "routes/admin/appointments/appointment.tsx"),
      route("members", "routes/admin/members/index.tsx"),
      route("members/export", "routes/admin/members/export.ts"),
      route("members/:memberId", "routes/admin/members/member.tsx"),
      route("members/:memberId/adjust", "routes/admin/members/adjust.tsx"),
      route("materials", "routes/admin/materials/index.tsx"),
      route("materials/new", "routes/admin/materials/edit.tsx", { id: "console-material-new" }),
      route("materials/:materialId", "routes/admin/materials/edit.tsx", { id: "console-material-edit" }),
      route("categories", "routes/admin/categories/index.tsx"),
      route("categories/new", "routes/admin/categories/edit.tsx", { id: "console-category-new" }),
      route("categories/:categoryId", "routes/admin/categories/edit.tsx", { id: "console-category-edit" }),
      route("approvals", "routes/admin/approvals/index.tsx"),
      // Stores: drafts, preview and publishing (ADR 027).
      route("stores", "routes/admin/stores/index.tsx"),
      route("stores/new", "routes/admin/stores/new.tsx"),
      route("stores/:storeId", "routes/admin/stores/edit.tsx"),
      route("stores/:storeId/appointments", "routes/admin/stores/appointments.tsx"),
      route("settings", "routes/admin/settings/index.tsx"),
      // The showroom settings (issue 37, ADR 050): admins only (`settings.edit`).
      route("showroom", "routes/admin/showroom/index.tsx"),
      route("staff", "routes/admin/staff/index.tsx"),
      route("staff/invite", "routes/admin/staff/invite.tsx"),
      route("staff/:userId", "routes/admin/staff/member.tsx"),
      route("audit", "routes/admin/audit/index.tsx"),
      route("messages", "routes/admin/messages/index.tsx"),
      route("messages/automatic/:kind", "routes/admin/messages/automatic.tsx"),
      route("messages/campaigns/new", "routes/admin/messages/campaign.tsx", { id: "console-campaign-new" }),
      route("messages/campaigns/:campaignId", "routes/admin/messages/campaign.tsx", { id: "console-campaign" }),
      route("messages/audience", "routes/admin/messages/audience.ts"),
      // Saved segments (issue 38 part 6, ADR 056).
      route("segments", "routes/admin/segments/index.tsx"),
      route("segments/new", "routes/admin/segments/segment.tsx", { id: "console-segment-new" }),
      route("segments/count", "routes/admin/segments/count.ts"),
      route("segments/:segmentId", "routes/admin/segments/segment.tsx", { id: "console-segment" }),
      route("api-keys", "routes/admin/api-keys/index.tsx"),
      route("rewards", "routes/admin/rewards/index.tsx"),
      route("rewards/new", "routes/admin/rewards/new.tsx"),
      route("rewards/:rewardId", "routes/admin/rewards/reward.tsx"),
      route("rules", "routes/admin/rules/index.tsx"),
      // Bulk point grants (issue 35 item 5).
      route("grants", "routes/admin/grants/index.tsx"),
      route("grants/new", "routes/admin/grants/new.tsx"),
      route("grants/:runId", "routes/admin/grants/grant.tsx"),
      route("grants/:runId/rejected.csv", "routes/admin/grants/rejected.ts"),
      // Uploaded images (ADR 028): the media library and the upload endpoint of every image field.
      route("images", "routes/admin/images/index.tsx"),
      route("images/upload", "routes/admin/images/upload.ts"),
      // Member import (issue 35, ADR 038): admins only (`member.import`).
      route("imports", "routes/admin/imports/index.tsx"),
      route("imports/firebase", "routes/admin/imports/firebase.tsx"),
      route("imports/csv", "routes/admin/imports/csv.tsx"),
      route("imports/:runId", "routes/admin/imports/run.tsx"),
      route("imports/:runId/rejected.csv", "routes/admin/imports/rejected.ts"),
      // Quote requests (issue 37 part 4, ADR 047).
      route("quotes", "routes/admin/quotes/index.tsx"),
      route("quotes/:quoteId", "routes/admin/quotes/quote.tsx"),
      // Samples at the stores (issue 37 part 3, ADR 046).
      route("samples", "routes/admin/samples/index.tsx"),
      // The LINE rich menus by member state (issue 38, ADR 049): admins only (`line.richmenu`).
      route("rich-menus", "routes/admin/rich-menus/index.tsx"),
      // Top referrers (issue 38, ADR 053).
      route("referrals", "routes/admin/referrals.tsx"),
      // Trade accounts' applications (issue 38 part 2, ADR 057).
      route("trade-accounts", "routes/admin/trade-accounts.tsx"),
      route("rich-menus/:state", "routes/admin/rich-menus/state.tsx"),
      // Outbound webhooks (issue 38 part 4, ADR 054): admins only (`webhooks.manage`).
      route("webhooks", "routes/admin/webhooks/index.tsx"),
      route("webhooks/:endpointId", "routes/admin/webhooks/endpoint.tsx"),
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
    // A referral link (issue 38, ADR 053).
    route("join/:code", "routes/referral.tsx"),
    // Booking a showroom appointment (issue 37).
    route("appointments/book", "routes/appointments/book.tsx"),
    route("appointments/manage/:token", "routes/appointments/manage.tsx"),
    route("appointments/find", "routes/appointments/find.tsx"),
    // The terms gate of imported members (ADR 038 "Consents") runs for every page below.
    layout("routes/member-center/layout.tsx", [
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
        // The offline member card (ADR 043).
        route("card", "routes/member-center/card/page.ts"),
        route("card/device", "routes/member-center/card/device.ts"),
        route("coupons/:id/qr", "routes/member-center/coupon-qr.ts"),
        // Quote lists (issue 37 part 4, ADR 047).
        route("quotes", "routes/member-center/quotes/index.tsx"),
        route("quotes/new", "routes/member-center/quotes/new.tsx"),
        route("quotes/:quoteId", "routes/member-center/quotes/quote.tsx"),
        // Samples (issue 37 part 3, ADR 046).
        route("samples", "routes/member-center/samples.tsx"),
        // Invite friends (issue 38, ADR 053).
        route("invite", "routes/member-center/invite.tsx"),
        // Trade accounts (issue 38 part 2, ADR 057).
        route("trade", "routes/member-center/trade.tsx"),
        route("samples/new", "routes/member-center/samples-new.tsx"),
        // Showroom appointments (issue 37): 我的預約, one booking, its calendar file.
        route("appointments", "routes/member-center/appointments/index.tsx"),
        route("appointments/:id", "routes/member-center/appointments/appointment.tsx"),
        route("appointments/:id/calendar.ics", "routes/member-center/appointments/calendar.ts"),
      ]),
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
    route("accept-terms", "routes/accept-terms.tsx"),
    route("privacy", "routes/privacy.tsx"),
    route("terms", "routes/terms.tsx"),
    route("unsubscribe/:token", "routes/unsubscribe.tsx"),
    // A campaign message's click link (issue 38 part 5, ADR 055).
    route("r/:token", "routes/click.tsx"),
    route("test-crud", "routes/test-crud.tsx"),
    route("dev/outbox", "routes/dev/outbox.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
