import { useNonce } from "~/lib/nonce";

/**
 * schema.org data for search engines, as an inline JSON-LD script carrying the request's CSP nonce.
 * `<` is escaped so text from the database can never close the script element.
 */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  const nonce = useNonce();
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return (
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      // The browser hides nonce attributes after parsing; the client renders none.
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serialised JSON with < escaped
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}
