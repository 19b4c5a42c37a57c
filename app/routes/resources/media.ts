import { parseMediaPath, renderTexture } from "~/domain/demo/pictures/textures";
import type { Route } from "./+types/media";

/**
 * The demo content's pictures, drawn on request from their path (app/domain/demo/pictures/textures.ts).
 * Deterministic, so browsers and a CDN can keep them for a long time.
 */
export function loader({ params }: Route.LoaderArgs) {
  const spec = parseMediaPath(params.kind, params.colours, params.file);
  if (!spec)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(renderTexture(spec), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400, s-maxage=604800, stale-while-revalidate=604800",
    },
  });
}
