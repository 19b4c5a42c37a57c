import { getApp } from "~/adapters/context.server";
import { materialSitemapEntries } from "~/domain/materials/materials.server";
import { storeSitemapEntries } from "~/domain/stores/stores.server";
import { links } from "~/lib/links";
import type { Route } from "./+types/sitemap";

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c);

/** sitemap.xml: the public pages and every published showroom and material. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, config } = getApp(context);
  const [stores, materials] = await Promise.all([storeSitemapEntries(db), materialSitemapEntries(db)]);
  const base = config.publicBaseUrl;
  const entries: { path: string; lastmod?: Date }[] = [
    { path: links.home() },
    { path: links.stores() },
    { path: links.materials() },
    ...stores.map((s) => ({ path: links.storeDetail(s.id), lastmod: s.updatedAt })),
    ...materials.map((m) => ({ path: links.materialDetail(m.id), lastmod: m.updatedAt })),
    { path: links.privacy() },
    { path: links.terms() },
  ];
  const urls = entries
    .map(
      (e) =>
        `  <url><loc>${escapeXml(`${base}${e.path}`)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString().slice(0, 10)}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=0, s-maxage=3600" },
  });
}
