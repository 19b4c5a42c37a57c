import { Refusal } from "../refusals";

/** Stable codes of refused staff operations; the console maps them to messages beside the field. */
export type StaffErrorCode =
  | "contact_required"
  | "invalid_email"
  | "invalid_phone"
  | "invalid_name"
  | "invalid_role"
  | "stores_required"
  | "unknown_store"
  | "already_staff"
  | "staff_not_found"
  | "cannot_change_self"
  | "last_admin"
  | "invalid_setting"
  // The clerk on the sale (ADR 042)
  | "invalid_staff_code"
  | "staff_code_taken";

export class StaffError extends Refusal<"staff"> {
  override readonly code: StaffErrorCode;
  constructor(code: StaffErrorCode, message: string, field: string | null = null) {
    super("staff", code, { field, message });
    this.name = "StaffError";
    this.code = code;
  }
}
