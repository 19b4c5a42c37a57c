import { Form, useActionData, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { ErrorList, Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { useFormState } from "~/lib/use-form-state";
import { RewardImageField, type RewardPicture } from "./reward-image-field";
import { useConsoleT } from "./use-console-t";

export const REWARD_KIND_OPTIONS = ["amount-off", "gift", "service"] as const;

type Props = {
  /** The saved reward as form values (the edit page; its `version` is sent back: a save over a newer one is refused). */
  saved?: Record<string, string>;
  stores: { id: string; name: string }[];
  submitLabel: string;
  /** The saved picture (or none). */
  picture: RewardPicture;
  /** May upload and browse the media library (`catalog.edit`). */
  canUpload: boolean;
};

/**
 * The reward's form (new and edit pages): the saved values, or after a refused save the values as typed with each
 * error beside its field and the picture that was chosen. The stock is asked only of a new reward (afterwards it
 * changes by adjustments). After a version conflict the form keeps what was typed but saves over the version now.
 */
export function RewardForm({ saved, stores, submitLabel, picture, canUpload }: Props) {
  const t = useConsoleT();
  const pending = useNavigation().state === "submitting";
  const form = useFormState();
  const answer = useActionData() as { picture?: RewardPicture } | undefined;
  const intent = form.value("intent");
  // The page's other forms (stock, retire) answer too: only a save's answer belongs here.
  const typed = (intent === "save" || !intent) && form.state?.values ? form.state : null;
  const value = (field: string) => (typed ? form.value(field) : (saved?.[field] ?? ""));
  const errors = typed ? form.errors : () => null;
  const withStock = !saved;
  const version = saved ? form.value("version", saved.version) : undefined;
  const shown = typed && answer && "picture" in answer ? (answer.picture ?? null) : picture;
  const chosenStores = new Set(value("storeIds").split(",").filter(Boolean));
  const storeErrors = errors("storeIds");
  const imageErrors = ["imageId", "imageSrc", "imageAltZh", "imageAltEn"].flatMap((f) => errors(f) ?? []);
  return (
    <Form method="post" className="grid gap-5 sm:grid-cols-2" noValidate key={`${saved?.version}-${version}`}>
      <input type="hidden" name="intent" value="save" />
      {version ? <input type="hidden" name="version" value={version} /> : null}
      <Field
        className="sm:col-span-2"
        label={t("console.programme.reward.name")}
        description={t("console.programme.reward.nameHint")}
        errors={errors("name")}
        inputProps={{ name: "name", required: true, maxLength: 60, defaultValue: value("name") }}
      />
      <NativeSelectField
        label={t("console.programme.reward.kind")}
        errors={errors("kind")}
        selectProps={{ name: "kind", required: true, defaultValue: value("kind") || "gift" }}
      >
        {REWARD_KIND_OPTIONS.map((k) => (
          <option key={k} value={k}>
            {t(`console.programme.kind.${k}`)}
          </option>
        ))}
      </NativeSelectField>
      <Field
        label={t("console.programme.reward.amountOff")}
        description={t("console.programme.reward.amountOffHint")}
        errors={errors("amountOff")}
        inputProps={{ name: "amountOff", inputMode: "numeric", defaultValue: value("amountOff") }}
      />
      <Field
        label={t("console.programme.reward.pointsCost")}
        errors={errors("pointsCost")}
        inputProps={{ name: "pointsCost", required: true, inputMode: "numeric", defaultValue: value("pointsCost") }}
      />
      {withStock ? (
        <Field
          label={t("console.programme.reward.stock")}
          description={t("console.programme.reward.stockHint")}
          errors={errors("stock")}
          inputProps={{ name: "stock", inputMode: "numeric", defaultValue: value("stock") }}
        />
      ) : null}
      <Field
        label={t("console.programme.reward.perMemberLimit")}
        description={t("console.programme.reward.perMemberLimitHint")}
        errors={errors("perMemberLimit")}
        inputProps={{ name: "perMemberLimit", inputMode: "numeric", defaultValue: value("perMemberLimit") }}
      />
      <Field
        label={t("console.programme.reward.couponValidDays")}
        errors={errors("couponValidDays")}
        inputProps={{
          name: "couponValidDays",
          required: true,
          inputMode: "numeric",
          defaultValue: value("couponValidDays") || "90",
        }}
      />
      <Field
        label={t("console.programme.reward.validFrom")}
        description={t("console.programme.reward.dateHint")}
        errors={errors("validFrom")}
        inputProps={{ name: "validFrom", type: "date", defaultValue: value("validFrom") }}
      />
      <Field
        label={t("console.programme.reward.validUntil")}
        description={t("console.programme.reward.dateHint")}
        errors={errors("validUntil")}
        inputProps={{ name: "validUntil", type: "date", defaultValue: value("validUntil") }}
      />
      <fieldset className="sm:col-span-2" aria-describedby="reward-stores-hint">
        <legend className="text-sm font-medium">{t("console.programme.reward.stores")}</legend>
        <p id="reward-stores-hint" className="mt-1 text-sm text-muted">
          {t("console.programme.reward.storesHint")}
        </p>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {stores.map((s) => (
            <label key={s.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="storeIds"
                value={s.id}
                defaultChecked={chosenStores.has(s.id)}
                className="size-4 accent-brand-700"
              />
              {s.name}
            </label>
          ))}
        </div>
        <ErrorList errors={storeErrors} />
      </fieldset>
      <RewardImageField initial={shown} errors={imageErrors.length ? imageErrors : null} canUpload={canUpload} />
      <div className="sm:col-span-2">
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
