import type { Database } from "@platform/db/client";
import type { RewardPicture } from "~/components/console/reward-image-field";
import { getImage, imageView } from "~/domain/images/images.server";
import type { Problems } from "~/domain/programme/input";
import type { Reward } from "~/domain/programme/rewards.server";
import type { serverT } from "~/lib/i18n.server";
import { lastValidTaipeiDay, taipeiIsoDate } from "~/lib/time";

/** What the reward and rules pages share on the server: problems in words, a reward as form values. */

/** The form's problems as messages in the page's language, per field. */
export function problemMessages(problems: Problems, t: ReturnType<typeof serverT>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(problems)) {
    out[field] = list.map((p) =>
      // A date parameter (2026-12-28) as the console writes dates (2026/12/28).
      t(
        `console.programme.error.${p.code}`,
        p.param === undefined ? undefined : { max: String(p.param).replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$1/$2/$3") },
      ),
    );
  }
  return out;
}

/** A saved reward as the edit form's values (dates as Taipei days; the last day is the day before the end). */
export function rewardValues(r: Reward): Record<string, string> {
  return {
    name: r.name,
    kind: r.kind,
    amountOff: r.amountOff === null ? "" : String(r.amountOff),
    pointsCost: String(r.pointsCost),
    stock: r.stock === null ? "" : String(r.stock),
    perMemberLimit: r.perMemberLimit === null ? "" : String(r.perMemberLimit),
    validFrom: r.validFrom ? taipeiIsoDate(r.validFrom) : "",
    validUntil: r.validUntil ? lastValidTaipeiDay(r.validUntil) : "",
    couponValidDays: String(r.couponValidDays),
    storeIds: (r.storeIds ?? []).join(","),
    imageId: r.imageId ?? "",
    imageSrc: r.image?.src ?? "",
    imageAltZh: r.image?.alt["zh-TW"] ?? "",
    imageAltEn: r.image?.alt.en ?? "",
    version: String(r.version),
  };
}

/** The values typed (stores ticked as one comma-separated value), to give back with the errors. */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && key !== "storeIds") values[key] = value;
  values.storeIds = form.getAll("storeIds").map(String).join(",");
  return values;
}

/**
 * The picture the form shows for these values (saved, or sent with a refused save): the uploaded image
 * (null if it no longer exists: the save's error says so), else the path kept from before uploads.
 */
export async function rewardPicture(db: Database, values: Record<string, string>): Promise<RewardPicture> {
  const id = values.imageId?.trim();
  if (id) {
    const row = await getImage(db, id);
    return row ? { kind: "media", image: imageView(row) } : null;
  }
  const src = values.imageSrc?.trim();
  return src ? { kind: "path", src, altZh: values.imageAltZh ?? "", altEn: values.imageAltEn ?? "" } : null;
}
