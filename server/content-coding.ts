/** The content codings we send, best first: brotli, then gzip (issue 17). */
export type ContentCoding = "br" | "gzip";

/**
 * Which of `offered` (our order of preference) the client's Accept-Encoding takes, or null for none (identity).
 *
 * The client's weights decide first (`br;q=0.5, gzip` takes gzip); between equal weights our order does, so a
 * browser's `gzip, deflate, br, zstd` gets brotli. `*` stands for every coding the header does not name, and
 * `q=0` refuses one. Express's `req.acceptsEncodings` would break that tie by the header's order instead.
 */
export function preferredCoding(
  acceptEncoding: string | undefined,
  offered: readonly ContentCoding[],
): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    // A coding named twice keeps its first weight, as RFC 9110 leaves it undefined.
    if (!weights.has(coding)) weights.set(coding, q);
  }
  const wildcard = weights.get("*");
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? wildcard ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
