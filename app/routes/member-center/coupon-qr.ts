import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { couponCodeForMember } from "~/domain/loyalty/member-center.server";
import { qrSvg } from "~/lib/qr.server";
import type { Route } from "./+types/coupon-qr";

/**
 * GET /member-center/coupons/:id/qr: a coupon's code as an SVG image, only for the member who owns
 * it (another member's coupon id answers 404, as an unknown one does). Loaded only when the member
 * opens the coupon, so the page itself carries no QR codes but the card's.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const noStore = { "Cache-Control": "private, no-store" };
  const session = getMemberSession(context);
  if (!session?.member) return new Response("Unauthorized", { status: 401, headers: noStore });
  const code = await couponCodeForMember(getApp(context).db, session.member.id, params.id);
  if (!code) return new Response("Not found", { status: 404, headers: noStore });
  return new Response(qrSvg(code), { headers: { ...noStore, "Content-Type": "image/svg+xml; charset=utf-8" } });
}
