/** The <meta> that carries the LIFF app id (and the mock flag outside production) to entry.client. */
export const LIFF_META = "han-liff-id";

export type LiffStart = { liffId: string; mock: boolean };

/**
 * Whether this page load needs LIFF: opened inside the LINE app (its in-app browser says `Line/` in
 * the user agent), or returning from LIFF's login with `code`, `state` and `liffClientId` in the
 * address (PRODUCT.md §2). Everyone else never downloads the LIFF chunk.
 */
export function liffStartFor(doc: Document, userAgent: string, search: string): LiffStart | null {
  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${LIFF_META}"]`);
  if (!meta?.content) return null;
  const params = new URLSearchParams(search);
  const returning = params.has("code") && params.has("state") && params.has("liffClientId");
  if (!returning && !/\bLine\/\d/i.test(userAgent)) return null;
  return { liffId: meta.content, mock: meta.dataset.mock === "1" };
}
