import type { MessageKey } from "~/lib/i18n";

/**
 * The console's refusals: one shape and one table (ADR 037, "One refusal model"). A domain function that refuses a
 * console change throws a `Refusal`: its area (whose catalog words the message), a `code`, optionally the form
 * `field` it belongs to and the `current` version of the thing. The table below gives each area's code its HTTP
 * status and its message key, as `LOYALTY_ERRORS` does for the loyalty area; `consoleFailure`
 * (app/adapters/console-failure.server.ts) turns any refusal into the page's answer. A caller never chooses a
 * status or a message for a code itself.
 *
 * `version_conflict` is one code everywhere: the thing changed since the form was opened (`VersionConflict`).
 */
/** A code's status, its message and, for a message beside a field, the line above the form ("fix the fields"). */
type Entry = { status: 400 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503; message: MessageKey; fix?: MessageKey };

export const CONSOLE_REFUSALS = {
  materials: {
    not_found: { status: 404, message: "console.materials.error.not_found" },
    version_conflict: { status: 409, message: "console.materials.error.conflict" },
    duplicate_id: { status: 409, message: "console.materials.error.duplicate_id", fix: "console.materials.error.form" },
    unknown_category: {
      status: 400,
      message: "console.materials.error.unknown_category",
      fix: "console.materials.error.form",
    },
    unknown_store: {
      status: 400,
      message: "console.materials.error.unknown_store",
      fix: "console.materials.error.form",
    },
    unknown_related: {
      status: 400,
      message: "console.materials.error.unknown_related",
      fix: "console.materials.error.form",
    },
  },
  stores: {
    not_found: { status: 404, message: "console.stores.error.not_found" },
    version_conflict: { status: 409, message: "console.stores.error.conflict" },
    id_taken: { status: 409, message: "console.stores.error.id_taken" },
    photoMissing: { status: 400, message: "console.stores.error.photoMissing" },
  },
  staff: {
    contact_required: { status: 400, message: "console.staff.error.contact_required" },
    invalid_email: { status: 400, message: "console.staff.error.invalid_email" },
    invalid_phone: { status: 400, message: "console.staff.error.invalid_phone" },
    invalid_name: { status: 400, message: "console.staff.error.invalid_name" },
    invalid_role: { status: 400, message: "console.staff.error.invalid_role" },
    stores_required: { status: 400, message: "console.staff.error.stores_required" },
    unknown_store: { status: 400, message: "console.staff.error.unknown_store" },
    invalid_setting: { status: 400, message: "console.staff.error.invalid_setting" },
    already_staff: { status: 409, message: "console.staff.error.already_staff" },
    last_admin: { status: 409, message: "console.staff.error.last_admin" },
    staff_not_found: { status: 404, message: "console.staff.error.staff_not_found" },
    cannot_change_self: { status: 403, message: "console.staff.error.cannot_change_self" },
    // The clerk on the sale (ADR 042)
    invalid_staff_code: { status: 400, message: "console.staff.error.invalid_staff_code" },
    staff_code_taken: { status: 409, message: "console.staff.error.staff_code_taken" },
  },
  members: {
    member_not_found: { status: 404, message: "console.members.error.member_not_found" },
    member_deleted: { status: 409, message: "console.members.error.member_deleted" },
    not_pending: { status: 409, message: "console.members.error.not_pending" },
    reason_required: { status: 400, message: "console.members.error.reason_required" },
    confirm_required: { status: 400, message: "console.members.error.confirm_required" },
    note_required: { status: 400, message: "console.members.error.note_required" },
    already: { status: 400, message: "console.members.error.already" },
  },
  programme: {
    not_found: { status: 404, message: "console.programme.error.notFound" },
    version_conflict: { status: 409, message: "console.programme.error.conflict" },
    image_missing: { status: 400, message: "console.programme.error.imageMissing", fix: "console.programme.error.fix" },
    stock_negative: { status: 400, message: "console.programme.error.stockNegative" },
  },
  rules: {
    version_conflict: { status: 409, message: "console.programme.error.rulesConflict" },
    date_taken: { status: 400, message: "console.programme.error.dateTaken", fix: "console.programme.error.fix" },
  },
  messages: {
    not_found: { status: 404, message: "console.messages.error.notFound" },
    version_conflict: { status: 409, message: "console.messages.error.conflict" },
    not_draft: { status: 409, message: "console.messages.error.notDraft" },
    empty_audience: { status: 400, message: "console.messages.error.emptyAudience" },
    past: { status: 400, message: "console.messages.error.past" },
    quiet_hours: { status: 400, message: "console.messages.error.quietHours" },
    no_channel: { status: 400, message: "console.messages.error.noChannel" },
  },
  automatic: {
    version_conflict: { status: 409, message: "console.messages.edit.conflict" },
  },
  images: {
    empty: { status: 400, message: "console.images.error.empty" },
    too_large: { status: 413, message: "console.images.error.too_large" },
    not_image: { status: 415, message: "console.images.error.not_image" },
    heic_unsupported: { status: 415, message: "console.images.error.heic_unsupported" },
    too_many_pixels: { status: 422, message: "console.images.error.too_many_pixels" },
    corrupt: { status: 422, message: "console.images.error.corrupt" },
    busy: { status: 503, message: "console.images.error.busy" },
    in_use: { status: 409, message: "console.images.inUse" },
    not_found: { status: 404, message: "console.images.notFound" },
  },
  imports: {
    import_busy: { status: 409, message: "console.imports.error.import_busy" },
    import_not_found: { status: 404, message: "console.imports.error.import_not_found" },
    import_wrong_state: { status: 409, message: "console.imports.error.import_wrong_state" },
    file_invalid: { status: 422, message: "console.imports.error.file_invalid" },
    file_too_large: { status: 413, message: "console.imports.error.file_too_large" },
  },
  approvals: {
    adjustment_not_found: { status: 404, message: "console.approvals.error.adjustment_not_found" },
    adjustment_decided: { status: 409, message: "console.approvals.error.adjustment_decided" },
    own_adjustment: { status: 403, message: "console.approvals.error.own_adjustment" },
  },
  grants: {
    grant_not_found: { status: 404, message: "console.grants.error.grant_not_found" },
    grant_wrong_state: { status: 409, message: "console.grants.error.grant_wrong_state" },
    own_grant: { status: 403, message: "console.grants.error.own_grant" },
    grant_busy: { status: 409, message: "console.grants.error.grant_busy" },
    nothing_to_grant: { status: 400, message: "console.grants.error.nothing_to_grant" },
    file_invalid: { status: 400, message: "console.grants.error.file_invalid", fix: "console.grants.error.fix" },
    file_too_large: { status: 413, message: "console.grants.error.file_too_large", fix: "console.grants.error.fix" },
    too_many_rows: { status: 400, message: "console.grants.error.too_many_rows", fix: "console.grants.error.fix" },
  },
  // Quote lists (issue 37 part 4, ADR 047)
  quotes: {
    not_found: { status: 404, message: "console.quotes.error.notFound" },
    version_conflict: { status: 409, message: "console.quotes.error.conflict" },
    not_open: { status: 409, message: "console.quotes.error.notOpen" },
  },
  // Trade accounts (issue 38 part 2, ADR 057): the member's application and the admin's decision.
  trade: {
    invalid_tax_id: { status: 400, message: "trade.error.invalid_tax_id", fix: "trade.error.form" },
    invalid_company: { status: 400, message: "trade.error.invalid_company", fix: "trade.error.form" },
    invalid_kind: { status: 400, message: "trade.error.invalid_kind", fix: "trade.error.form" },
    already_pending: { status: 409, message: "trade.error.already_pending" },
    already_trade: { status: 409, message: "trade.error.already_trade" },
    not_found: { status: 404, message: "trade.error.not_found" },
    already_decided: { status: 409, message: "trade.error.already_decided" },
    reason_required: { status: 400, message: "trade.error.reason_required", fix: "trade.error.form" },
    invalid_reason: { status: 400, message: "trade.error.invalid_reason", fix: "trade.error.form" },
  },
  // Samples (issue 37 part 3, ADR 046): the member's request and the staff's steps.
  samples: {
    not_found: { status: 404, message: "samples.error.not_found" },
    wrong_state: { status: 409, message: "samples.error.wrong_state" },
    unknown_store: { status: 400, message: "samples.error.unknown_store", fix: "samples.error.form" },
    no_samples: { status: 400, message: "samples.error.no_samples", fix: "samples.error.form" },
    already_requested: { status: 409, message: "samples.error.already_requested", fix: "samples.error.form" },
    over_limit: { status: 409, message: "samples.error.over_limit", fix: "samples.error.form" },
    // The walk-in loan at the counter (ADR 046): the member's card must have been scanned; a disabled member.
    scan_required: { status: 403, message: "console.counter.samples.error.scan_required" },
    member_unavailable: { status: 409, message: "console.counter.samples.error.member_unavailable" },
  },
  // Showroom visits (issue 37, ADR 045).
  visits: {
    not_found: { status: 404, message: "console.visits.error.not_found" },
    version_conflict: { status: 409, message: "console.visits.error.conflict" },
    not_booked: { status: 409, message: "console.visits.error.not_booked" },
    not_today: { status: 409, message: "console.visits.error.not_today" },
    not_checked_in: { status: 409, message: "console.visits.error.not_checked_in" },
    unknown_consultant: {
      status: 400,
      message: "console.visits.error.unknown_consultant",
      fix: "console.visits.error.fix",
    },
    follow_up_date: { status: 400, message: "console.visits.error.follow_up_date", fix: "console.visits.error.fix" },
    no_follow_up: { status: 409, message: "console.visits.error.no_follow_up" },
  },
  // Showroom appointments (issue 37, ADR 044): the member's booking and the store's settings.
  appointments: {
    not_found: { status: 404, message: "appointments.error.not_found" },
    version_conflict: { status: 409, message: "appointments.error.conflict" },
    not_offered: { status: 400, message: "appointments.error.not_offered", fix: "appointments.error.fix" },
    slot_full: { status: 409, message: "appointments.error.slot_full", fix: "appointments.error.fix" },
    slot_outside: { status: 400, message: "appointments.error.slot_outside", fix: "appointments.error.fix" },
    in_past: { status: 400, message: "appointments.error.in_past", fix: "appointments.error.fix" },
    closed_day: { status: 400, message: "appointments.error.closed_day", fix: "appointments.error.fix" },
    beyond_horizon: { status: 400, message: "appointments.error.beyond_horizon", fix: "appointments.error.fix" },
    past_cutoff: { status: 409, message: "appointments.error.past_cutoff" },
    limit_reached: { status: 429, message: "appointments.error.limit_reached" },
    bad_address: { status: 400, message: "appointments.error.bad_address", fix: "appointments.error.fix" },
    bad_material: { status: 400, message: "appointments.error.bad_material", fix: "appointments.error.fix" },
    not_open: { status: 409, message: "appointments.error.not_open" },
    bad_slots: { status: 400, message: "appointments.error.bad_slots", fix: "appointments.error.fix" },
  },
  // The showroom settings (issue 37, ADR 050).
  showroom: {
    version_conflict: { status: 409, message: "console.showroom.error.conflict" },
  },
  // The LINE rich menus (ADR 049).
  richMenus: {
    image_required: {
      status: 400,
      message: "console.richMenus.error.imageRequired",
      fix: "console.richMenus.error.form",
    },
    line_refused: { status: 422, message: "console.richMenus.error.lineRefused" },
    line_unavailable: { status: 503, message: "console.richMenus.error.lineUnavailable" },
    line_off: { status: 409, message: "console.richMenus.error.lineOff" },
    not_found: { status: 404, message: "console.richMenus.error.notFound" },
  },
  // Saved segments (issue 38 part 6, ADR 056).
  segments: {
    not_found: { status: 404, message: "console.segments.error.notFound" },
    version_conflict: { status: 409, message: "console.segments.error.conflict" },
    name_taken: { status: 409, message: "console.segments.error.nameTaken", fix: "console.segments.error.fix" },
  },
  // Outbound webhooks (ADR 054).
  webhooks: {
    not_found: { status: 404, message: "console.webhooks.error.notFound" },
    version_conflict: { status: 409, message: "console.webhooks.error.conflict" },
    busy: { status: 409, message: "console.webhooks.error.busy" },
    invalid: { status: 400, message: "console.webhooks.problem.invalid", fix: "console.webhooks.error.form" },
    httpsRequired: {
      status: 400,
      message: "console.webhooks.problem.httpsRequired",
      fix: "console.webhooks.error.form",
    },
    privateAddress: {
      status: 400,
      message: "console.webhooks.problem.privateAddress",
      fix: "console.webhooks.error.form",
    },
    unresolvable: {
      status: 400,
      message: "console.webhooks.problem.unresolvable",
      fix: "console.webhooks.error.form",
    },
  },
} as const satisfies Record<string, Record<string, Entry>>;

export type RefusalArea = keyof typeof CONSOLE_REFUSALS;
type CodesByArea = { [K in RefusalArea]: keyof (typeof CONSOLE_REFUSALS)[K] & string };
export type RefusalCode<A extends RefusalArea> = CodesByArea[A];

/** A console change the rules refused; nothing changed. */
export class Refusal<A extends RefusalArea = RefusalArea> extends Error {
  readonly area: A;
  readonly code: RefusalCode<A>;
  /** The form field the refusal belongs to, when there is one. */
  readonly field: string | null;
  /** Values for the message's placeholders. */
  readonly params: Record<string, string> | undefined;
  constructor(
    area: A,
    code: RefusalCode<A>,
    options: { field?: string | null; params?: Record<string, string>; message?: string } = {},
  ) {
    super(options.message ?? code);
    this.name = "Refusal";
    this.area = area;
    this.code = code;
    this.field = options.field ?? null;
    this.params = options.params;
  }

  get status(): number {
    return this.entry.status;
  }

  get messageKey(): MessageKey {
    return this.entry.message;
  }

  /** The line above the form when the message goes beside a field, where the area words one. */
  get fixKey(): MessageKey | undefined {
    return this.entry.fix;
  }

  private get entry(): Entry {
    return (CONSOLE_REFUSALS[this.area] as Record<string, Entry>)[this.code] as Entry;
  }
}

type ConflictArea = { [A in RefusalArea]: "version_conflict" extends RefusalCode<A> ? A : never }[RefusalArea];

/**
 * The thing changed since the form was opened (someone else saved first): 409, with the version saved now when the
 * caller can show it, so saving again is a deliberate choice to replace the other person's change.
 */
export class VersionConflict<T = unknown> extends Refusal {
  readonly current: T;
  constructor(area: ConflictArea, current: T, params?: Record<string, string>) {
    super(area, "version_conflict" as never, { params });
    this.name = "VersionConflict";
    this.current = current;
  }
}

export function isRefusal<A extends RefusalArea>(error: unknown, area?: A): error is Refusal<A> {
  return error instanceof Refusal && (area === undefined || error.area === area);
}

export function isVersionConflict(error: unknown): error is VersionConflict {
  return error instanceof VersionConflict;
}
