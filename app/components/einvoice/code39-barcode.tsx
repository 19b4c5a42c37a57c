import { useEffect, useRef, useState } from "react";
import { code39Bars, WIDE_RATIO } from "~/domain/einvoice/code39";

/**
 * The sizes tried, largest first: CSS pixels per narrow module and the wide elements' width in modules. Each is a
 * whole number of pixels per element, so no bar is blurred or rounded to another width: a barcode scaled to fit
 * (1.8 px a module) reads as nothing to a scanner, so the drawing picks the largest size that fits its box.
 */
const SIZES: ReadonlyArray<readonly [module: number, wide: number]> = [
  [3, WIDE_RATIO],
  [2, WIDE_RATIO],
  [2, 2.5],
  [2, 2],
  [1, WIDE_RATIO],
];

/**
 * A Code 39 barcode as an inline SVG (ADR 041): white background with the quiet zones, black bars, drawn at the
 * largest size of SIZES (at most `module` CSS pixels per narrow module) that fits the width it is given, measured
 * in the browser; `height` CSS pixels tall. `crispEdges` keeps the bars' edges sharp for a scanner reading it off
 * a screen.
 */
export function Code39Barcode({
  text,
  label,
  module = 3,
  height = 110,
  testId,
}: {
  text: string;
  label: string;
  module?: number;
  height?: number;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<readonly [number, number]>([module, WIDE_RATIO]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const fitToBox = () => {
      const room = element.clientWidth;
      const sizes = SIZES.filter(([m]) => m <= module);
      const next = sizes.find(([m, wide]) => code39Bars(text, wide).width * m <= room) ?? sizes.at(-1);
      if (next) setSize((current) => (current[0] === next[0] && current[1] === next[1] ? current : next));
    };
    fitToBox();
    const observer = new ResizeObserver(fitToBox);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, module]);
  const [px, wide] = size;
  const { bars, width } = code39Bars(text, wide);
  return (
    <div ref={box} className="w-full">
      <svg
        xmlns="http://www.w3.org/2000/svg"
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${height}`}
        width={width * px}
        height={height}
        preserveAspectRatio="none"
        shapeRendering="crispEdges"
        className="block max-w-full bg-white"
        data-testid={testId}
        data-code39={text}
        data-module={px}
        data-wide={wide}
      >
        <rect width={width} height={height} fill="#fff" />
        <g fill="#000">
          {bars.map((bar) => (
            <rect key={bar.x} x={bar.x} y={0} width={bar.width} height={height} />
          ))}
        </g>
      </svg>
    </div>
  );
}
