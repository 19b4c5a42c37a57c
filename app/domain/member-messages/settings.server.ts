import type { Database } from "@platform/db/client";
import { AUTOMATIC_KINDS, type AutomaticKind, automaticMessage, type MessageChannel } from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { CHANNEL_ORDER } from "./channels";
import { AUTOMATIC_DEFAULTS } from "./templates";

/**
 * The automatic messages' settings (issue 16 item 2, ADR 034): a row per kind once an admin saved it, the
 * defaults in code (templates.ts) until then. `version` 0 is "never saved": the first save inserts.
 */
export type AutomaticSetting = {
  kind: AutomaticKind;
  enabled: boolean;
  text: Record<Locale, string>;
  channels: MessageChannel[];
  version: number;
  updatedAt: Date | null;
};

function fromRow(row: typeof automaticMessage.$inferSelect): AutomaticSetting {
  return {
    kind: row.kind,
    enabled: row.enabled,
    text: { "zh-TW": row.textZh, en: row.textEn },
    channels: CHANNEL_ORDER.filter((c) => row.channels.includes(c)),
    version: row.version,
    updatedAt: row.updatedAt,
  };
}

function defaultSetting(kind: AutomaticKind): AutomaticSetting {
  const d = AUTOMATIC_DEFAULTS[kind];
  return { kind, enabled: d.enabled, text: { ...d.text }, channels: [...d.channels], version: 0, updatedAt: null };
}

export async function automaticSettings(db: Database): Promise<AutomaticSetting[]> {
  const rows = await db.select().from(automaticMessage);
  const saved = new Map(rows.map((r) => [r.kind, fromRow(r)]));
  return AUTOMATIC_KINDS.map((kind) => saved.get(kind) ?? defaultSetting(kind));
}

export async function automaticSetting(db: Database, kind: AutomaticKind): Promise<AutomaticSetting> {
  const [row] = await db.select().from(automaticMessage).where(eq(automaticMessage.kind, kind));
  return row ? fromRow(row) : defaultSetting(kind);
}

/** Thrown when the setting changed since the admin opened it; carries what is saved now. */

export type AutomaticSettingInput = {
  enabled: boolean;
  text: Record<Locale, string>;
  channels: MessageChannel[];
};

/** Saves one kind over the version the admin saw (admins: `messages.manage`), audited in the same transaction. */
export async function saveAutomaticSetting(
  db: Database,
  actor: StaffActor,
  kind: AutomaticKind,
  version: number,
  input: AutomaticSettingInput,
  audit: AuditContext,
  now = new Date(),
): Promise<AutomaticSetting> {
  requirePermission(actor, "messages.manage");
  const channels = CHANNEL_ORDER.filter((c) => input.channels.includes(c));
  return auditedTx(db, audit, now, async (t, record) => {
    const before = await automaticSetting(t, kind);
    const values = {
      enabled: input.enabled,
      textZh: input.text["zh-TW"],
      textEn: input.text.en,
      channels,
      updatedBy: actor.userId,
      updatedAt: now,
    };
    let row: typeof automaticMessage.$inferSelect | undefined;
    if (version === 0) {
      [row] = await t
        .insert(automaticMessage)
        .values({ kind, ...values, version: 1 })
        .onConflictDoNothing()
        .returning();
    } else {
      [row] = await t
        .update(automaticMessage)
        .set({ ...values, version: sql`${automaticMessage.version} + 1` })
        .where(and(eq(automaticMessage.kind, kind), eq(automaticMessage.version, version)))
        .returning();
    }
    if (!row) throw new VersionConflict("automatic", await automaticSetting(t, kind));
    const after = fromRow(row);
    await record("messages.automatic-updated", ["automatic_message", kind], {
      before: {
        enabled: before.enabled,
        textZh: before.text["zh-TW"],
        textEn: before.text.en,
        channels: before.channels.join(","),
      },
      after: {
        enabled: after.enabled,
        textZh: after.text["zh-TW"],
        textEn: after.text.en,
        channels: after.channels.join(","),
      },
    });
    return after;
  });
}
