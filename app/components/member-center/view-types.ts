import type { Route } from "../../routes/member-center/+types/index";

/**
 * What the member center's components show: the shapes the route's loader and action send
 * (app/routes/member-center/index.server.ts), as the page receives them — never restated here.
 */
export type MemberCenterData = Route.ComponentProps["loaderData"];
export type WalletCouponView = MemberCenterData["coupons"][number];
export type RewardView = MemberCenterData["rewards"][number];
export type ActivityView = MemberCenterData["activity"][number];
export type FavouriteView = MemberCenterData["favourites"][number];
export type RedeemAnswer = NonNullable<Route.ComponentProps["actionData"]>;
