import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";

export type ImageData = { src: string; alt: string; width: number; height: number };

/** An image with its intrinsic size (no layout shift), lazy unless it is above the fold. */
export function CatalogImage({
  image,
  eager = false,
  className,
  sizes,
  ...props
}: { image: ImageData; eager?: boolean; sizes?: string } & Omit<ComponentProps<"img">, "src" | "alt">) {
  return (
    <img
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={eager ? "high" : undefined}
      sizes={sizes}
      className={cn("h-full w-full object-cover", className)}
      {...props}
    />
  );
}
