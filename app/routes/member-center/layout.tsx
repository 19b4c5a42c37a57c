import { Outlet } from "react-router";
import { termsGateMiddleware } from "~/adapters/terms-gate.server";
import type { Route } from "./+types/layout";

/**
 * Every member-center page, data request, post and resource passes through here: the terms gate of members moved
 * in from another system (ADR 038 "Consents"). Renders nothing of its own.
 */
export const middleware: Route.MiddlewareFunction[] = [termsGateMiddleware];

export default function MemberCenterLayout() {
  return <Outlet />;
}
