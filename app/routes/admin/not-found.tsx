import { requireStaff } from "~/domain/staff/guard.server";
import { notFound } from "~/lib/http.server";
import type { Route } from "./+types/not-found";

/** Unknown console paths: login first (nothing about the console is shown to visitors), then 404. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(context);
  notFound(request);
}

export default function ConsoleNotFound() {
  return null;
}
