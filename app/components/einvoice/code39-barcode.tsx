import { code39Bars } from "~/domain/einvoice/code39";

/**
 * A Code 39 barcode as an inline SVG (ADR 041): white background with the quiet zones, black bars, `module` CSS
 * pixels per narrow module (wide = 3), `height` CSS pixels tall. It shrinks with a narrow container
 * (`max-width: 100%`); `crispEdges` keeps the bars' edges sharp for a scanner reading it off a screen.
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
  const { bars, width } = code39Bars(text);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      width={width * module}
      height={height}
      preserveAspectRatio="none"
      shapeRendering="crispEdges"
      className="block max-w-full bg-white"
      data-testid={testId}
      data-code39={text}
    >
      <rect width={width} height={height} fill="#fff" />
      <g fill="#000">
        {bars.map((bar) => (
          <rect key={bar.x} x={bar.x} y={0} width={bar.width} height={height} />
        ))}
      </g>
    </svg>
  );
}
