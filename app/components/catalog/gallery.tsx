import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight } from "~/components/ui/icons";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";
import { CatalogImage, type ImageData } from "./catalog-image";

/**
 * The material's pictures: a horizontal strip with scroll snapping, so a finger swipes natively and it
 * works without JavaScript (the thumbnails are plain links to each picture). With JavaScript:
 * previous/next buttons, arrow keys on the focused strip, and the position announced politely.
 */
export function Gallery({ images, t, label }: { images: ImageData[]; t: Translate; label: string }) {
  const strip = useRef<HTMLUListElement>(null);
  const [index, setIndex] = useState(0);
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);

  // While a button or key scrolls the strip smoothly, the picture being scrolled to is the current
  // one: the scroll events on the way there must not move the position back.
  const target = useRef<number | null>(null);

  const goTo = useCallback((next: number) => {
    const el = strip.current;
    if (!el) return;
    const clamped = Math.max(0, Math.min(next, el.children.length - 1));
    target.current = clamped;
    // Never wait forever (a resize during the scroll moves the goal).
    window.setTimeout(() => {
      if (target.current === clamped) target.current = null;
    }, 1000);
    el.scrollTo({ left: clamped * el.clientWidth, behavior: "smooth" });
    setIndex(clamped);
  }, []);

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const at = Math.round(el.scrollLeft / Math.max(1, el.clientWidth));
        if (target.current !== null) {
          if (Math.abs(el.scrollLeft - target.current * el.clientWidth) > 2) return;
          target.current = null;
        }
        setIndex(at);
      });
    };
    // A finger or trackpad takes over from any scroll we started.
    const release = () => {
      target.current = null;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("pointerdown", release, { passive: true });
    el.addEventListener("wheel", release, { passive: true });
    el.addEventListener("touchstart", release, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("pointerdown", release);
      el.removeEventListener("wheel", release);
      el.removeEventListener("touchstart", release);
      cancelAnimationFrame(frame);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") goTo(index + 1);
    else if (event.key === "ArrowLeft") goTo(index - 1);
    else if (event.key === "Home") goTo(0);
    else if (event.key === "End") goTo(images.length - 1);
    else return;
    event.preventDefault();
  };

  const count = images.length;
  return (
    <section aria-roledescription="carousel" aria-label={label} className="min-w-0" data-testid="gallery">
      <div className="relative">
        <ul
          ref={strip}
          // A focusable scroll region: keyboard users can scroll it, and arrow keys step through the pictures.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be focusable (WCAG 2.1.1)
          tabIndex={0}
          onKeyDown={onKeyDown}
          aria-label={t("catalog.material.position", { index: index + 1, count })}
          className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-3xl bg-sand [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-700"
        >
          {images.map((image, i) => (
            <li
              key={image.src}
              id={`image-${i + 1}`}
              className="aspect-[4/3] w-full shrink-0 snap-center"
              aria-roledescription="slide"
              aria-label={t("catalog.material.position", { index: i + 1, count })}
            >
              <CatalogImage image={image} eager={i === 0} sizes="(min-width: 1024px) 55vw, 100vw" />
            </li>
          ))}
        </ul>
        {interactive && count > 1 ? (
          <>
            <button
              type="button"
              onClick={() => goTo(index - 1)}
              disabled={index === 0}
              aria-label={t("catalog.material.previous")}
              className="absolute top-1/2 left-3 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-paper/90 text-ink shadow-sm backdrop-blur transition-opacity hover:bg-paper focus-visible:outline-2 focus-visible:outline-brand-700 disabled:opacity-0"
            >
              <ChevronLeft aria-hidden className="size-5" />
            </button>
            <button
              type="button"
              onClick={() => goTo(index + 1)}
              disabled={index === count - 1}
              aria-label={t("catalog.material.next")}
              className="absolute top-1/2 right-3 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-paper/90 text-ink shadow-sm backdrop-blur transition-opacity hover:bg-paper focus-visible:outline-2 focus-visible:outline-brand-700 disabled:opacity-0"
            >
              <ChevronRight aria-hidden className="size-5" />
            </button>
            <p
              aria-live="polite"
              className="absolute right-4 bottom-3 rounded-full bg-ink/70 px-2.5 py-0.5 text-xs text-paper tabular-nums"
              data-testid="gallery-position"
            >
              {index + 1} / {count}
            </p>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <ul className="mt-3 flex gap-3">
          {images.map((image, i) => (
            <li key={image.src} className="w-20 sm:w-24">
              <a
                href={`#image-${i + 1}`}
                onClick={(event) => {
                  event.preventDefault();
                  goTo(i);
                }}
                aria-label={t("catalog.material.showImage", { index: i + 1 })}
                aria-current={i === index ? "true" : undefined}
                className={cn(
                  "block aspect-[4/3] overflow-hidden rounded-xl border-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
                  i === index ? "border-ink" : "border-transparent opacity-80 hover:opacity-100",
                )}
              >
                <CatalogImage image={{ ...image, alt: "" }} sizes="96px" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
