import type { Database } from "@platform/db/client";
import { consoleFailure } from "~/adapters/console-failure.server";
import type { RewardPicture } from "~/components/console/reward-image-field";
import { getImage, imageView } from "~/domain/images/images.server";
import { rewardSchema, rewardValues, withStoreIds } from "~/domain/programme/reward-input";
import type { Reward } from "~/domain/programme/rewards.server";
import { isVersionConflict } from "~/domain/refusals";
import { formFailure, formValues, parseForm } from "~/lib/forms.server";
import type { serverT } from "~/lib/i18n.server";

/** What the reward pages share on the server: the form read and answered, the picture it shows. */

type T = ReturnType<typeof serverT>;

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

/**
 * The reward form (ADR 008) with the stores the admin may choose, the stock only for a new reward; refused: 400
 * with every field's message, the values as typed and the picture chosen, so nothing is lost.
 */
export async function readRewardForm(
  db: Database,
  form: FormData,
  t: T,
  options: { stores: readonly { id: string }[]; withStock: boolean },
) {
  const schema = rewardSchema(t, { knownStoreIds: options.stores.map((s) => s.id), withStock: options.withStock });
  const parsed = parseForm(schema, withStoreIds(form));
  if (parsed.ok) return parsed;
  const picture = await rewardPicture(db, parsed.failure.values);
  const answer = { ...parsed.failure, formError: t("console.programme.error.fix"), picture };
  return { ok: false as const, answer: formFailure(answer) };
}

/**
 * A refused reward change (`consoleFailure`): the values as typed with the picture chosen; after a version
 * conflict also the reward as saved now, and the form saves over that version.
 */
export async function rewardRefusal(db: Database, error: unknown, form: FormData, t: T) {
  const typed = withStoreIds(form);
  const latest = isVersionConflict(error) ? rewardValues(error.current as Reward) : null;
  const picture = await rewardPicture(db, formValues(typed));
  return consoleFailure(error, typed, t, {
    values: latest ? { version: latest.version ?? "" } : {},
    answer: latest ? { latest, picture } : { picture },
  });
}
