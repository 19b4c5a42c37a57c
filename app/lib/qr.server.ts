import { encode } from "uqr";

/**
 * A QR code as a small SVG string, rendered on the server (uqr, no browser code): one path, each
 * run of dark modules in a row drawn as one rectangle, so a card token's code is about 2 kB.
 * `border` is the quiet zone in modules (the standard asks for 4; 2 is what phone and counter
 * scanners read reliably on a white card and keeps the code larger).
 */
export function qrSvg(text: string, { border = 2, ecc = "M" as "L" | "M" | "Q" | "H" } = {}): string {
  const { size, data } = encode(text, { ecc, border: 0 });
  const total = size + border * 2;
  let d = "";
  for (let y = 0; y < size; y++) {
    const row = data[y] ?? [];
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (row[x + run]) run++;
      d += `M${x + border} ${y + border}h${run}v1h-${run}z`;
      x += run;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges" aria-hidden="true" focusable="false">` +
    `<rect width="${total}" height="${total}" fill="#fff"/><path fill="#1c1917" d="${d}"/></svg>`
  );
}
