import { Form, useNavigation } from "react-router";
import { ResponsiveImage } from "~/components/images/responsive-image";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { ALT_MAX_LENGTH } from "~/domain/images/limits";
import type { MediaImageView } from "~/domain/images/urls";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import type { useFormState } from "~/lib/use-form-state";
import { useConsoleT } from "../use-console-t";

/**
 * One image of the library: the picture, its alt texts, size and upload time, the alt text editor (opened again
 * with its errors when a change was refused) and the delete button. `form` is the page's last answer when it was
 * about this image.
 */
export function ImageCard({ image, form }: { image: MediaImageView; form: ReturnType<typeof useFormState> | null }) {
  const t = useConsoleT();
  const locale = useLocale();
  const pending = useNavigation().state === "submitting";
  const refused = Boolean(form?.errors("altZh") || form?.errors("altEn"));
  const id = <input type="hidden" name="id" value={image.id} />;
  return (
    <li className="overflow-hidden rounded-2xl border border-line bg-white" data-testid="image">
      <div className="aspect-[4/3] bg-sand/40">
        <ResponsiveImage
          image={image}
          sizes="(min-width: 1024px) 22rem, (min-width: 640px) 45vw, 100vw"
          className="h-full w-full object-cover"
        />
      </div>
      <div className="space-y-2 p-4">
        <p className="font-medium" lang="zh-Hant-TW">
          {image.altZh}
        </p>
        {image.altEn ? (
          <p className="text-sm text-muted" lang="en">
            {image.altEn}
          </p>
        ) : null}
        <p className="text-xs text-muted tabular-nums">
          {t("console.images.size", { width: image.width, height: image.height })} ·{" "}
          {t("console.images.uploadedAt", { time: formatTaipei(image.createdAt, locale, "dateTime") })}
        </p>
        <details open={refused} className="text-sm">
          <summary className="cursor-pointer underline underline-offset-4">{t("console.images.editAlt")}</summary>
          <Form method="post" className="mt-3 space-y-3">
            <input type="hidden" name="intent" value="alt" />
            {id}
            {(["altZh", "altEn"] as const).map((name) => (
              <Field
                key={name}
                label={t(`console.images.upload.${name}`)}
                errors={form?.errors(name) ?? null}
                inputProps={{
                  name,
                  required: name === "altZh",
                  maxLength: ALT_MAX_LENGTH,
                  defaultValue: form ? form.value(name, image[name]) : image[name],
                }}
              />
            ))}
            <Button type="submit" size="sm" pending={pending}>
              {t("console.images.saveAlt")}
            </Button>
          </Form>
        </details>
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          {id}
          <Button
            type="submit"
            size="sm"
            variant="secondary"
            aria-label={t("console.images.deleteFor", { alt: image.altZh })}
          >
            {t("console.images.delete")}
          </Button>
        </Form>
      </div>
    </li>
  );
}
