import { getApp } from "~/adapters/context.server";
import { links } from "~/lib/links";
import type { Route } from "./+types/robots";

/** robots.txt: member, staff and diagnostics pages stay out of search engines; the sitemap is announced. */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = getApp(context);
  const disallowed = [links["member-center"](), links.testCrud(), "/admin", "/signup/", "/forget-password", "/api/"];
  const body = [
    "User-agent: *",
    ...disallowed.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${config.publicBaseUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
