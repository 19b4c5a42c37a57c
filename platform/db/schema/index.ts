// The one schema of the app, split by area. drizzle-kit reads every file in this folder.

export * from "@platform/db/schema/appointments";
export * from "@platform/db/schema/audit";
export * from "@platform/db/schema/auth";
export * from "@platform/db/schema/catalog";
export * from "@platform/db/schema/console";
export * from "@platform/db/schema/content";
export * from "@platform/db/schema/diagnostics";
export * from "@platform/db/schema/imports";
export * from "@platform/db/schema/line";
export * from "@platform/db/schema/loyalty";
export * from "@platform/db/schema/media";
export * from "@platform/db/schema/member-messages";
export * from "@platform/db/schema/members";
export * from "@platform/db/schema/messaging";
export * from "@platform/db/schema/pos";
export * from "@platform/db/schema/quotes";
export * from "@platform/db/schema/referrals";
export * from "@platform/db/schema/reports";
export * from "@platform/db/schema/rich-menus";
export * from "@platform/db/schema/samples";
export * from "@platform/db/schema/segments";
export * from "@platform/db/schema/staff";
export * from "@platform/db/schema/webhooks";
