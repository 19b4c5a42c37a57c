import { lazy, Suspense, useState } from "react";
import { ResponsiveImage } from "~/components/images/responsive-image";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";
import type { MediaImageView } from "~/domain/images/urls";
import { useLocale } from "~/lib/i18n";
import { ImageLibraryPicker, useImageAlt } from "./image-library-picker";
import { useConsoleT } from "./use-console-t";

// The uploader is its own chunk, fetched when the admin opens "Upload a new image" (ADR 028).
const ImageUploader = lazy(() => import("./image-uploader"));

/** A reward's picture in the editor: an uploaded image, or a path kept from before the image upload. */
export type RewardPicture =
  | { kind: "media"; image: MediaImageView }
  | { kind: "path"; src: string; altZh: string; altEn: string }
  | null;

/**
 * The reward's image (issue 14): upload a new one (alt texts zh-TW/en given with the upload), pick one
 * from the media library, or remove it. The choice travels as a hidden `imageId` input of the reward's
 * form (a picture given as a path before uploads travels as its path and alt texts, so it is kept as it
 * is until replaced); without JavaScript the picture stays as saved.
 */
export function RewardImageField({
  initial,
  errors,
  canUpload,
}: {
  initial: RewardPicture;
  errors: string[] | null;
  canUpload: boolean;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const altOfImage = useImageAlt();
  const [picture, setPicture] = useState<RewardPicture>(initial);
  const [panel, setPanel] = useState<"" | "upload" | "library">("");
  const [status, setStatus] = useState("");

  const alt =
    picture?.kind === "media"
      ? altOfImage(picture.image)
      : picture?.kind === "path"
        ? locale === "en" && picture.altEn
          ? picture.altEn
          : picture.altZh
        : "";

  const choose = (image: MediaImageView) => {
    setPicture({ kind: "media", image });
    setPanel("");
    setStatus(t("console.programme.reward.imageSet", { alt: altOfImage(image) }));
  };

  return (
    <fieldset
      className="space-y-4 sm:col-span-2"
      aria-describedby={errors?.length ? "reward-image-hint reward-image-errors" : "reward-image-hint"}
      data-testid="reward-image-field"
    >
      <legend className="text-sm font-medium">{t("console.programme.reward.image")}</legend>
      <p id="reward-image-hint" className="text-sm text-muted">
        {t("console.programme.reward.imageHint")}
      </p>
      {picture?.kind === "media" ? <input type="hidden" name="imageId" value={picture.image.id} /> : null}
      {picture?.kind === "path" ? (
        <>
          <input type="hidden" name="imageSrc" value={picture.src} />
          <input type="hidden" name="imageAltZh" value={picture.altZh} />
          <input type="hidden" name="imageAltEn" value={picture.altEn} />
        </>
      ) : null}
      {picture ? (
        <div className="flex flex-wrap items-center gap-4" data-testid="reward-image-chosen">
          <div className="size-28 shrink-0 overflow-hidden rounded-xl border border-line bg-sand">
            {picture.kind === "media" ? (
              <ResponsiveImage image={picture.image} sizes="112px" cover />
            ) : (
              <img src={picture.src} alt={alt} width={112} height={112} className="size-full object-cover" />
            )}
          </div>
          <div className="min-w-0 flex-1 space-y-2">
            <p className="text-sm">{alt}</p>
            {picture.kind === "path" ? (
              <p className="text-xs break-all text-muted">
                {t("console.programme.reward.imageSrc")}: {picture.src}
              </p>
            ) : null}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setPicture(null);
                setStatus(t("console.programme.reward.imageRemoved"));
              }}
              aria-label={t("console.programme.reward.imageRemoveFor", { alt })}
              data-testid="reward-image-remove"
            >
              {t("console.programme.reward.imageRemove")}
            </Button>
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted">{t("console.programme.reward.imageNone")}</p>
      )}
      <ErrorList id="reward-image-errors" errors={errors} />
      <p aria-live="polite" className="text-sm text-success-700" data-testid="reward-image-status">
        {status}
      </p>
      {canUpload ? (
        <div className="space-y-4">
          <div className="flex flex-wrap gap-3">
            <Button
              type="button"
              variant={panel === "upload" ? "primary" : "secondary"}
              aria-expanded={panel === "upload"}
              aria-controls="reward-image-upload"
              onClick={() => setPanel(panel === "upload" ? "" : "upload")}
              data-testid="reward-image-open-upload"
            >
              {t("console.programme.reward.imageUpload")}
            </Button>
            <Button
              type="button"
              variant={panel === "library" ? "primary" : "secondary"}
              aria-expanded={panel === "library"}
              aria-controls="reward-image-library"
              onClick={() => setPanel(panel === "library" ? "" : "library")}
              data-testid="reward-image-open-library"
            >
              {t("console.programme.reward.imagePick")}
            </Button>
          </div>
          {panel === "upload" ? (
            <div id="reward-image-upload" className="rounded-2xl bg-paper p-4">
              <Suspense fallback={<p className="text-sm text-muted">{t("console.stores.photos.loading")}</p>}>
                <ImageUploader legend={t("console.programme.reward.imageUploadLegend")} onUploaded={choose} />
              </Suspense>
            </div>
          ) : null}
          {panel === "library" ? (
            <ImageLibraryPicker
              id="reward-image-library"
              testId="reward-image-library"
              onPick={choose}
              isChosen={(image) => picture?.kind === "media" && picture.image.id === image.id}
              pickLabel={(text) => t("console.programme.reward.imagePickFor", { alt: text })}
              chosenLabel={t("console.programme.reward.imageChosen")}
            />
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
