import type { clerkZhTW } from "./clerk.zh-TW";

/** The clerk on the sale (issue 36 item 3, ADR 042). */
export const clerkEn = {
  "console.nav.clerkReports": "Sales by clerk",
  "console.permission.member.consultant": "Set a member's consultant",
  "console.permission.reports.clerks": "See sales by clerk and consultant lists",
  "console.audit.act.member.consultant_changed": "Member's consultant changed",
  "console.audit.act.staff.code_changed": "Staff code changed",
  "console.staff.error.invalid_staff_code": "A staff code is 4 to 6 letters or digits",
  "console.staff.error.staff_code_taken": "Another staff member has this code",

  "console.clerk.code.title": "Staff code",
  "console.clerk.code.label": "Staff code for the tills",
  "console.clerk.code.hint":
    "4 to 6 letters or digits, unique; a till sends it with a purchase and the sale is booked to this person. Leave empty to remove it.",
  "console.clerk.code.save": "Save staff code",
  "console.clerk.code.saved": "Staff code saved.",

  "console.clerk.consultant.title": "Consultant",
  "console.clerk.consultant.none": "None yet",
  "console.clerk.consultant.me": "Me ({name})",
  "console.clerk.consultant.choose": "Choose a consultant",
  "console.clerk.consultant.noneOption": "None",
  "console.clerk.consultant.save": "Set consultant",
  "console.clerk.consultant.saved": "Consultant updated.",
  "console.clerk.consultant.invalid": "Choose a staff member from the list",

  "console.clerk.report.title": "Sales by clerk",
  "console.clerk.report.lead": "{from} to {to} (Taipei time)",
  "console.clerk.report.filters": "Sales filters",
  "console.clerk.report.consultant": "Consultant",
  "console.clerk.report.sales": "Sales per clerk and store",
  "console.clerk.report.salesNote":
    "Only purchases booked with a clerk; amounts and points net of refunds. New members: signed up in the range, with a first purchase booked by that clerk in the range.",
  "console.clerk.report.noSales": "No purchases with a clerk in this range.",
  "console.clerk.report.total": "Total: {purchases} purchases, {amount}, {points} points, {newMembers} new members",
  "console.clerk.report.col.clerk": "Clerk",
  "console.clerk.report.col.store": "Store",
  "console.clerk.report.col.purchases": "Purchases",
  "console.clerk.report.col.amount": "Amount",
  "console.clerk.report.col.points": "Points",
  "console.clerk.report.col.newMembers": "New members",
  "console.clerk.report.members": "{name}'s members",
  "console.clerk.report.membersNote":
    "Last visit: the latest purchase or coupon used (Taipei time), most recent first.",
  "console.clerk.report.noMembers": "No member has this consultant yet.",
  "console.clerk.report.col.member": "Member number",
  "console.clerk.report.col.name": "Name",
  "console.clerk.report.col.lastVisit": "Last visit",
  "console.clerk.report.never": "No purchase yet",
} as const satisfies Record<keyof typeof clerkZhTW, string>;
