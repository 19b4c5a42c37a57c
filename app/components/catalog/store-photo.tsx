import { ResponsiveImage } from "~/components/images/responsive-image";
import type { PhotoView } from "~/domain/stores/photos";
import { CatalogImage } from "./catalog-image";

/**
 * A store photo filling its box: a demo store's generated picture, or an uploaded image as <picture> with
 * AVIF/WebP/JPEG srcsets (ADR 028). Width and height are always set; lazy unless `eager`.
 */
export function StorePhoto({
  photo,
  sizes,
  eager = false,
  className,
}: {
  photo: PhotoView;
  sizes: string;
  eager?: boolean;
  className?: string;
}) {
  return photo.kind === "static" ? (
    <CatalogImage image={photo} eager={eager} sizes={sizes} className={className} />
  ) : (
    <ResponsiveImage image={photo.image} sizes={sizes} eager={eager} cover className={className} />
  );
}
