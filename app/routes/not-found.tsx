import { notFound } from "~/lib/http.server";
import type { Route } from "./+types/not-found";

/** Every path no other route claims: the 404 page, with status 404. */
export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export function action({ request }: Route.ActionArgs) {
  notFound(request);
}

export default function NotFoundPage() {
  return null;
}
