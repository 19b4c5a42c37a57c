import { encode } from "uqr";

/**
 * A QR code as SVG markup (see `qrSvg` in qr.server.ts, which caches it on the server). Shared with the offline
 * member card's script (ADR 043), which draws its code on the phone with the same function.
 */
export function renderQrSvg(text: string, border: number, ecc: "L" | "M" | "Q" | "H"): string {
  const { size, data } = encode(text, { ecc, border: 0 });
  const total = size + border * 2;
  let d = "";
  for (let y = 0; y < size; y++) {
    const row = data[y] ?? [];
    // Where the pen is after the last run of this row (null: no run yet in this row).
    let pen: number | null = null;
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (row[x + run]) run++;
      d += pen === null ? `M${x + border} ${y + border}.5h${run}` : `m${x - pen} 0h${run}`;
      pen = x + run;
      x += run;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges" aria-hidden="true" focusable="false">` +
    `<rect width="${total}" height="${total}" fill="#fff"/><path stroke="#1c1917" stroke-width="1" fill="none" d="${d}"/></svg>`
  );
}
