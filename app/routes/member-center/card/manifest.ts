import { serverT } from "~/lib/i18n.server";

/** GET /member-center/card/manifest.webmanifest: the card as an installed app (ADR 043), in the member's language. */
export function loader({ request }: { request: Request }) {
  const t = serverT(request);
  const manifest = {
    id: "/member-center/card",
    name: `${t("brand.name")} ${t("member.card.title")}`,
    short_name: t("member.card.title"),
    start_url: "/member-center/card",
    scope: "/member-center/card",
    display: "standalone",
    orientation: "portrait",
    background_color: "#faf8f4",
    theme_color: "#1f1c18",
    icons: [
      { src: "/member-card/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/member-card/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/member-card/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
