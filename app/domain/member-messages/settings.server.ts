import type { Database } from "@platform/db/client";
import {
  AUTOMATIC_KINDS,
  type AutomaticKind,
  automaticMessage,
  MESSAGE_CHANNELS,
  type MessageChannel,
} from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Locale, Translate } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { CHANNEL_ORDER } from "./channels";
import { AUTOMATIC_DEFAULTS, checkTemplate, type TemplateProblem } from "./templates";

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

function templateProblem(problem: TemplateProblem, t: Translate): string {
  switch (problem.code) {
    case "required":
      return t("console.messages.error.required");
    case "tooLong":
      return t("console.messages.error.tooLong", { max: problem.max });
    case "control":
      return t("console.messages.error.control");
    case "unknownPlaceholder":
      return t("console.messages.error.unknownPlaceholder", { name: `{${problem.name}}` });
  }
}

/**
 * The console's form of one automatic message (ADR 008: read by `parseForm`): on or off, at least one channel,
 * the text in both languages under `checkTemplate`'s rules (the channels, a checkbox each, as one list:
 * `automaticFormData`).
 */
export function automaticSchema(t: Translate, kind: AutomaticKind) {
  const text = z
    .string()
    .default("")
    .transform((raw, ctx) => {
      const problem = checkTemplate(kind, raw);
      if (problem) ctx.addIssue({ code: "custom", message: templateProblem(problem, t) });
      return raw.trim();
    });
  return z
    .object({
      enabled: z.string().default(""),
      channels: z
        .string()
        .default("")
        .transform((raw, ctx) => {
          const channels = raw.split(",").filter(Boolean) as MessageChannel[];
          if (channels.length === 0) ctx.addIssue({ code: "custom", message: t("console.messages.error.noChannel") });
          return channels;
        }),
      textZh: text,
      textEn: text,
    })
    .transform(
      (v): AutomaticSettingInput => ({
        enabled: v.enabled === "on",
        channels: v.channels,
        text: { "zh-TW": v.textZh, en: v.textEn },
      }),
    );
}

/** The submission as `parseForm` reads it: the known channels as one list, `enabled` on or not. */
export function automaticFormData(form: FormData): FormData {
  const data = new FormData();
  for (const name of ["textZh", "textEn", "version"]) data.set(name, String(form.get(name) ?? ""));
  data.set("enabled", form.get("enabled") === "on" ? "on" : "");
  const channels = form.getAll("channels").map(String);
  data.set("channels", MESSAGE_CHANNELS.filter((c) => channels.includes(c)).join(","));
  return data;
}

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
