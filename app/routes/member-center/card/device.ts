import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { describeUserAgent } from "~/domain/auth/user-agent";
import { registerCardDevice } from "~/domain/loyalty/card-devices.server";
import type { Route } from "./+types/device";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** The body is an empty JSON object: nothing the device says decides anything (its name comes from its agent). */
const bodySchema = z.object({}).strict();

/**
 * POST /member-center/card/device: hands this browser an offline card secret (ADR 043). JSON; 401 `not_logged_in`
 * without a session, 400 `invalid_input` for any other body, 409 `too_many_devices` at the member's limit. The
 * secret is in this answer only (never logged, never cached).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = getMemberSession(context);
  if (!session?.member) return data({ error: { code: "not_logged_in" } }, { status: 401, headers: NO_STORE });
  if (request.method !== "POST")
    return data({ error: { code: "method_not_allowed" } }, { status: 405, headers: NO_STORE });
  let body: unknown = null;
  const text = await request.text();
  try {
    // Anything longer than a few characters is not the empty object this endpoint takes.
    if (text.length <= 100) body = JSON.parse(text || "{}");
  } catch {
    body = null;
  }
  if (!bodySchema.safeParse(body).success) {
    return data({ error: { code: "invalid_input" } }, { status: 400, headers: NO_STORE });
  }
  const { db, config } = getApp(context);
  const agent = describeUserAgent(request.headers.get("user-agent"));
  const now = new Date();
  const device = await registerCardDevice(
    db,
    config.secrets.session,
    { memberId: session.member.id, name: `${agent.device}/${agent.browser}`, sessionId: session.sessionId },
    now,
  );
  if (!device) return data({ error: { code: "too_many_devices" } }, { status: 409, headers: NO_STORE });
  return data({ ...device, serverNow: now.getTime() }, { status: 201, headers: NO_STORE });
}

export function loader() {
  return data({ error: { code: "method_not_allowed" } }, { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}
