import { lazy, Suspense, useState } from "react";
import { StorePhoto } from "~/components/catalog/store-photo";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";
import type { MediaImageView } from "~/domain/images/urls";
import { MAX_STORE_PHOTOS, type PhotoView } from "~/domain/stores/photos";
import { useLocale } from "~/lib/i18n";
import { ImageLibraryPicker } from "./image-library-picker";
import { useConsoleT } from "./use-console-t";

// The uploader is its own chunk, fetched when the person opens "Upload a new photo" (ADR 028).
const ImageUploader = lazy(() => import("./image-uploader"));

export type EditorPhoto = { token: string; view: PhotoView };

/**
 * The store editor's photos (issue 14): the list in order (first = the store's main picture), each with
 * "earlier", "later" and "remove"; a new photo uploaded here (alt text zh-TW/en) or an image picked from
 * the media library is added at the end. The order travels as hidden `photo` inputs of the editor's form,
 * so it is saved into the draft with the rest (and without JavaScript the photos are kept as they are).
 */
export function StorePhotosField({
  initial,
  errors,
  canUpload,
}: {
  initial: EditorPhoto[];
  errors: string[] | null;
  canUpload: boolean;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const [photos, setPhotos] = useState(initial);
  const [panel, setPanel] = useState<"" | "upload" | "library">("");
  const [status, setStatus] = useState("");
  const full = photos.length >= MAX_STORE_PHOTOS;

  const altOf = (view: PhotoView) =>
    view.kind === "static" ? view.alt : locale === "en" && view.image.altEn ? view.image.altEn : view.image.altZh;

  const add = (image: MediaImageView) => {
    const token = `image:${image.id}`;
    if (photos.some((p) => p.token === token)) {
      setStatus(t("console.stores.photos.already", { alt: altOf({ kind: "media", image }) }));
      return;
    }
    if (full) return;
    setPhotos((list) => [...list, { token, view: { kind: "media", image } }]);
    setStatus(t("console.stores.photos.added", { alt: altOf({ kind: "media", image }) }));
  };

  const move = (index: number, by: -1 | 1) => {
    setPhotos((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
    setStatus(t("console.stores.photos.moved", { n: index + by + 1 }));
  };

  const remove = (index: number) => {
    const photo = photos[index];
    setPhotos((list) => list.filter((_, i) => i !== index));
    if (photo) setStatus(t("console.stores.photos.removed", { alt: altOf(photo.view) }));
  };

  return (
    <div className="space-y-4" data-testid="store-photos-field">
      <input type="hidden" name="photosField" value="1" />
      {photos.map((p) => (
        <input key={p.token} type="hidden" name="photo" value={p.token} />
      ))}
      {photos.length === 0 ? (
        <p className="text-sm text-muted">{t("console.stores.photos.none")}</p>
      ) : (
        <ol className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" data-testid="store-photos">
          {photos.map((p, i) => {
            const alt = altOf(p.view);
            return (
              <li key={p.token} className="flex flex-col gap-2" data-testid="store-photo" data-token={p.token}>
                <div className="relative aspect-[4/3] overflow-hidden rounded-xl border border-line bg-sand">
                  <StorePhoto photo={p.view} sizes="240px" />
                  {i === 0 ? (
                    <span className="absolute top-2 left-2 rounded-full bg-ink/85 px-2 py-0.5 text-xs text-paper">
                      {t("console.stores.photos.main")}
                    </span>
                  ) : null}
                </div>
                <p className="line-clamp-2 text-xs text-muted">
                  <span className="sr-only">{t("console.stores.photos.position", { n: i + 1 })} </span>
                  {alt}
                </p>
                <div className="flex flex-wrap gap-1">
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={t("console.stores.photos.earlierFor", { alt })}
                  >
                    ←
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    disabled={i === photos.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={t("console.stores.photos.laterFor", { alt })}
                  >
                    →
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    onClick={() => remove(i)}
                    aria-label={t("console.stores.photos.removeFor", { alt })}
                  >
                    {t("console.stores.photos.remove")}
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <ErrorList errors={errors} />
      <p aria-live="polite" className="text-sm text-success-700" data-testid="store-photos-status">
        {status}
      </p>
      {canUpload ? (
        <div className="space-y-4 border-t border-line pt-4">
          <div className="flex flex-wrap gap-3">
            <Button
              type="button"
              variant={panel === "upload" ? "primary" : "secondary"}
              aria-expanded={panel === "upload"}
              aria-controls="store-photos-upload"
              disabled={full}
              onClick={() => setPanel(panel === "upload" ? "" : "upload")}
              data-testid="store-photos-open-upload"
            >
              {t("console.stores.photos.upload")}
            </Button>
            <Button
              type="button"
              variant={panel === "library" ? "primary" : "secondary"}
              aria-expanded={panel === "library"}
              aria-controls="store-photos-library"
              disabled={full}
              onClick={() => setPanel(panel === "library" ? "" : "library")}
              data-testid="store-photos-open-library"
            >
              {t("console.stores.photos.pick")}
            </Button>
          </div>
          {full ? (
            <p className="text-sm text-muted">{t("console.stores.photos.full", { max: MAX_STORE_PHOTOS })}</p>
          ) : null}
          {panel === "upload" && !full ? (
            <div id="store-photos-upload" className="rounded-2xl bg-paper p-4">
              <Suspense fallback={<p className="text-sm text-muted">{t("console.stores.photos.loading")}</p>}>
                <ImageUploader
                  legend={t("console.stores.photos.uploadLegend")}
                  onUploaded={(image) => {
                    add(image);
                    setPanel("");
                  }}
                />
              </Suspense>
            </div>
          ) : null}
          {panel === "library" && !full ? (
            <ImageLibraryPicker
              id="store-photos-library"
              testId="store-photos-library"
              onPick={add}
              isChosen={(image) => photos.some((p) => p.token === `image:${image.id}`)}
              pickLabel={(alt) => t("console.stores.photos.addFor", { alt })}
              chosenLabel={t("console.stores.photos.inList")}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
