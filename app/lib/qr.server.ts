import { renderQrSvg as render } from "./qr-svg";

/**
 * A QR code as a small SVG string, rendered on the server (uqr, no browser code): one stroked path, each
 * run of dark modules in a row drawn as a line one module thick, the next run of the row reached by a
 * relative move, so a card token's code is about 1.2 kB (it is sent twice with the member center: in the
 * page and in its data).
 * `border` is the quiet zone in modules (the standard asks for 4; 2 is what phone and counter
 * scanners read reliably on a white card and keeps the code larger).
 */
export function qrSvg(text: string, { border = 2, ecc = "M" as "L" | "M" | "Q" | "H" } = {}): string {
  const key = `${ecc}${border}:${text}`;
  const cached = rendered.get(key);
  if (cached !== undefined) {
    // Most recently used last: a Map iterates in insertion order, so the oldest goes first.
    rendered.delete(key);
    rendered.set(key, cached);
    return cached;
  }
  const svg = render(text, border, ecc);
  rendered.set(key, svg);
  if (rendered.size > CACHE_ENTRIES) rendered.delete(rendered.keys().next().value as string);
  return svg;
}

/**
 * Encoding is the costly part (uqr tries all eight masks and scores each), and the same text comes
 * back often: a card token is the same for every render of the member center within its second
 * (reloads, the page and its full-screen view, the refresh endpoint), a coupon's code for every
 * view of that coupon. The SVG is a pure function of its input, so a small LRU of recent ones is
 * safe; a few hundred entries of 2–5 kB each.
 */
const CACHE_ENTRIES = 500;
const rendered = new Map<string, string>();
