import script, { version } from "virtual:card-bundle";

/**
 * GET /member-center/card/app.js: the offline card's script (app/card/card.client.ts, bundled at build time). The
 * page asks for `?v=<version>`, so that address never changes meaning and may be kept for a year.
 */
export function loader({ request }: { request: Request }) {
  const asked = new URL(request.url).searchParams.get("v");
  return new Response(script, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": asked === version ? "public, max-age=31536000, immutable" : "no-cache",
      ETag: `"${version}"`,
    },
  });
}
