import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { ResponsiveImage } from "~/components/images/responsive-image";
import { Button } from "~/components/ui/button";
import { inputClass } from "~/components/ui/input-class";
import type { MediaImageRef, MediaImageView } from "~/domain/images/urls";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { useConsoleT } from "./use-console-t";

type Library = { images: MediaImageView[]; nextHref: string | null; q: string };

/** An uploaded image's alt text in the page's language (zh-TW when the English one is empty). */
export function useImageAlt(): (image: MediaImageRef) => string {
  const locale = useLocale();
  return (image) => (locale === "en" && image.altEn ? image.altEn : image.altZh);
}

/**
 * "Choose from the media library" (ADR 028), shared by the editors that take uploaded images (store
 * photos, a reward's picture): a search over both alt texts and the newest images as buttons; the
 * first page loads when the panel appears. What a pick does is the editor's (`onPick`).
 */
export function ImageLibraryPicker({
  id,
  testId,
  onPick,
  isChosen,
  pickLabel,
  chosenLabel,
}: {
  id: string;
  testId?: string;
  onPick: (image: MediaImageView) => void;
  isChosen: (image: MediaImageView) => boolean;
  /** The button's accessible name for one image, e.g. "Add “{alt}” to this store". */
  pickLabel: (alt: string) => string;
  /** Shown under an image already chosen. */
  chosenLabel: string;
}) {
  const t = useConsoleT();
  const altOf = useImageAlt();
  const library = useFetcher<Library>();
  const [query, setQuery] = useState("");
  const search = (q: string) => library.load(`/admin/images?${new URLSearchParams(q ? { q } : {}).toString()}`);

  // The library's first page when the panel appears.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when mounted
  useEffect(() => {
    if (!library.data && library.state === "idle") search("");
  }, []);

  return (
    <div id={id} className="space-y-3 rounded-2xl bg-paper p-4" data-testid={testId}>
      <div className="flex flex-wrap items-end gap-2">
        <label className="grid gap-1 text-sm font-medium">
          {t("console.images.search")}
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                search(query.trim());
              }
            }}
            className={cn(inputClass, "w-64")}
            maxLength={100}
          />
        </label>
        <Button type="button" variant="secondary" onClick={() => search(query.trim())}>
          {t("console.images.searchSubmit")}
        </Button>
      </div>
      {library.data ? (
        library.data.images.length === 0 ? (
          <p className="text-sm text-muted">{library.data.q ? t("console.images.empty") : t("console.images.none")}</p>
        ) : (
          <ul className="grid grid-cols-3 gap-3 sm:grid-cols-4 lg:grid-cols-6">
            {library.data.images.map((image) => {
              const alt = altOf(image);
              const chosen = isChosen(image);
              return (
                <li key={image.id}>
                  <button
                    type="button"
                    onClick={() => onPick(image)}
                    disabled={chosen}
                    aria-label={pickLabel(alt)}
                    className="group block w-full rounded-xl text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-50"
                    data-testid="library-image"
                  >
                    <span className="block aspect-square overflow-hidden rounded-xl border border-line bg-sand group-hover:border-ink">
                      <ResponsiveImage image={image} sizes="120px" alt="" cover />
                    </span>
                    <span className="mt-1 line-clamp-1 block text-xs text-muted">{chosen ? chosenLabel : alt}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )
      ) : (
        <p className="text-sm text-muted">{t("console.stores.photos.loading")}</p>
      )}
    </div>
  );
}
