import type { Database } from "@platform/db/client";
import type { AuditContext } from "~/domain/audit/audit.server";
import type { Locale, MessageKey, Translate } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import {
  consoleCategories,
  createMaterial,
  MaterialError,
  materialChoices,
  materialForEdit,
  setMaterialPublished,
  updateMaterial,
} from "./console.server";
import { materialDetailView } from "./detail-view";
import { type MaterialInput, materialFormValues } from "./editor";
import { displayingStores, relatedMaterials } from "./materials.server";

/**
 * The material editor's work on the server (ADR 037: the route file is thin): what the page shows, the preview
 * of the form as typed, and a save (with the publish that may follow it).
 */

const NEW_MATERIAL_VALUES: Record<string, string> = { swatch: "#d8d2c8" };

/** The editor of a material (null: a new one), in the reader's language; null when the id is unknown. */
export async function materialEditor(db: Database, id: string | null, locale: Locale) {
  const found = id ? await materialForEdit(db, id) : null;
  if (id && !found) return null;
  const [categories, choices] = await Promise.all([consoleCategories(db), materialChoices(db)]);
  const labels = { "zh-TW": catalogT("zh-TW"), en: catalogT("en") };
  return {
    material: found
      ? {
          id: found.id,
          name: pick(found.name, locale),
          published: found.published,
          version: found.version,
          updatedAt: found.updatedAt.toISOString(),
        }
      : null,
    values: found
      ? materialFormValues(found, (key, l) => labels[l](`catalog.spec.${key}` as MessageKey))
      : NEW_MATERIAL_VALUES,
    categories: categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    stores: choices.stores.map((s) => ({ id: s.id, name: pick(s.name, locale), published: s.published })),
    materials: choices.materials
      .filter((m) => m.id !== id)
      .map((m) => ({ id: m.id, name: pick(m.name, locale), categoryId: m.categoryId })),
  };
}

/** The public page's view of the form as typed (nothing is saved); an unknown category is refused. */
export async function materialPreview(db: Database, input: MaterialInput, locale: Locale, t: Translate) {
  const [categories, stores, related] = await Promise.all([
    consoleCategories(db),
    displayingStores(db, input.storeIds),
    relatedMaterials(db, input),
  ]);
  const category = categories.find((c) => c.id === input.categoryId);
  if (!category) throw new MaterialError("unknown_category", "categoryId");
  return materialDetailView({ material: input, category, stores, related }, locale, t);
}

/**
 * Saves the form: a new material as a draft, or an edit of `target` (then published when asked and not yet).
 * Answers what was done and whether the public site shows the material (its pages must be rendered again).
 */
export async function saveMaterial(
  db: Database,
  target: { id: string; version: number } | null,
  input: MaterialInput,
  publish: boolean,
  audit: AuditContext,
  now: Date,
): Promise<{ done: "created" | "saved" | "published"; shown: boolean }> {
  if (!target) {
    await createMaterial(db, input, audit, now);
    return { done: "created", shown: false };
  }
  const saved = await updateMaterial(db, target.id, target.version, input, audit, now);
  if (!publish || saved.published) return { done: "saved", shown: saved.published };
  await setMaterialPublished(db, target.id, saved.version, true, audit, now);
  return { done: "published", shown: true };
}
