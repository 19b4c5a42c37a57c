import type { ComponentProps } from "react";
import type { VariantFormat } from "~/domain/images/limits";
import { fallbackVariant, type MediaImageRef, mediaUrl, srcSet } from "~/domain/images/urls";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";

/** Sources in the order browsers should try them; JPEG is the `<img>` itself. */
const SOURCES: readonly Exclude<VariantFormat, "jpeg">[] = ["avif", "webp"];
const TYPES: Record<Exclude<VariantFormat, "jpeg">, string> = { avif: "image/avif", webp: "image/webp" };

/**
 * An uploaded image (ADR 028) for public and console pages: `<picture>` with AVIF and WebP sources and a
 * JPEG `<img>`, each with every width in `srcset` so the browser downloads the size the layout needs
 * (`sizes`: how wide the image is shown, e.g. "(min-width: 1024px) 33vw, 100vw"). Width and height are
 * set (no layout shift); lazy and async unless `eager` (the largest picture above the fold). The alt
 * text is the page's language, zh-TW when the English one is empty.
 */
export function ResponsiveImage({
  image,
  sizes,
  eager = false,
  cover = false,
  className,
  alt,
  ...props
}: {
  image: MediaImageRef;
  sizes: string;
  eager?: boolean;
  /** Fill the parent box (cropped, object-cover) instead of the picture's own proportions. */
  cover?: boolean;
  /** Another alt text than the image's own (e.g. "" when the picture only decorates a labelled link). */
  alt?: string;
} & Omit<ComponentProps<"img">, "src" | "srcSet" | "alt" | "width" | "height" | "sizes">) {
  const locale = useLocale();
  const fallback = fallbackVariant(image);
  const text = alt ?? (locale === "en" && image.altEn ? image.altEn : image.altZh);
  return (
    <picture className={cover ? "contents" : undefined}>
      {SOURCES.map((format) => {
        const set = srcSet(image, format);
        return set ? <source key={format} type={TYPES[format]} srcSet={set} sizes={sizes} /> : null;
      })}
      <img
        src={fallback ? mediaUrl(image.hash, fallback.width, "jpeg") : undefined}
        srcSet={srcSet(image, "jpeg") || undefined}
        sizes={sizes}
        alt={text}
        width={image.width}
        height={image.height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        fetchPriority={eager ? "high" : undefined}
        className={cn(cover ? "size-full object-cover" : "h-auto max-w-full", className)}
        {...props}
      />
    </picture>
  );
}
