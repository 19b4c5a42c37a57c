import { notFound, parseParam, slugId } from "~/lib/http.server";
import type { Route } from "./+types/store-detail";

/**
 * Store detail. The id is validated first (malformed → 404). The store catalogue arrives with
 * the public-site issue; until then the database holds no stores, so every well-formed id is
 * unknown and answers the 404 page too.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  parseParam(slugId, params.id, request);
  notFound(request);
}

export default function StoreDetailPage() {
  return null;
}
