/**
 * The kinds of thing an audit row is about (`target_type`), as staff read them: each has a word in both catalogs
 * (`console.audit.target.<type>`), like the actions. A type not listed here (a test's) is shown as written.
 */
export const AUDIT_TARGET_TYPES = [
  "api_key",
  "audit_chain",
  "automatic_message",
  "campaign",
  "console_login",
  "console_setting",
  "coupon",
  "import_run",
  "loyalty_rules",
  "material",
  "material_category",
  "media_image",
  "member",
  "member_export",
  "permission",
  "point_adjustment",
  "purchase",
  // Quote lists (issue 37 part 4, ADR 047).
  "quote",
  "reward",
  // Referrals (issue 38, ADR 053).
  "referral",
  // LINE rich menus (issue 38 part 3, ADR 049).
  "rich_menu",
  // Saved segments (issue 38 part 6, ADR 056).
  "segment",
  // Outbound webhooks (issue 38 part 4, ADR 054).
  "webhook_endpoint",
  // Samples (issue 37 part 3, ADR 046).
  "sample_request",
  // The showroom settings (issue 37, ADR 050).
  "showroom_settings",
  "staff",
  "staff_invitation",
  // Trade accounts (issue 38 part 2, ADR 057).
  "trade_application",
  "staff_session",
  "store",
  // Showroom appointments (issue 37, ADR 045).
  "appointment",
] as const;
