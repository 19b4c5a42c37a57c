import { useCoupon } from "../../../app/domain/loyalty/rewards.server";
import { apiHandler, posAudit } from "./context";
import { parseBody, send } from "./errors";
import { RedeemCouponBody } from "./schemas";

/** POST /coupons/{code}/redeem — uses a member's coupon at the key's store, once. */
export const redeemCoupon = apiHandler(async function redeemCoupon({ db }, req, res, key) {
  parseBody(RedeemCouponBody, req.body);
  const used = await useCoupon(db, {
    code: String(req.params.code),
    storeId: key.storeId,
    apiKeyId: key.id,
    audit: posAudit(req, res, key),
  });
  send(res, 200, { code: used.code, status: "used", usedAt: used.usedAt?.toISOString() });
});
