import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { audienceSchema } from "~/domain/member-messages/campaign-form.server";
import { campaignFormValues } from "~/domain/member-messages/campaign-values";
import { countAudience } from "~/domain/member-messages/campaigns.server";
import { audienceChoices } from "~/domain/member-messages/showroom-audience.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { consoleResource } from "~/lib/console-resource.server";
import { serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/audience";

/**
 * The composer's live count (GET, admins): how many members the filters name and how the delivery would reach
 * them with the channels that have a message. Bad filters answer 400 with the fields; nothing is written. A refusal
 * is the console's error page for a person who opens the address (console-resource.server.ts).
 */
const resource = consoleResource(async ({ request, context }: Route.LoaderArgs) => {
  requirePermission(context, "messages.manage");
  const app = getApp(context);
  const params = new URL(request.url).searchParams;
  const choices = await audienceChoices(app.db);
  const parsed = audienceSchema(serverT(request), choices).safeParse(campaignFormValues(params));
  if (!parsed.success) {
    return data({ count: null, problems: parsed.error.issues.map((i) => String(i.path[0])) }, { status: 400 });
  }
  const has = (name: string) => (params.get(name) ?? "").trim().length > 0;
  const texts = {
    lineText: has("line") ? "x" : null,
    smsText: has("sms") ? "x" : null,
    emailSubject: has("email") ? "x" : null,
    emailBody: has("email") ? "x" : null,
  };
  const count = await countAudience(
    app.db,
    parsed.data,
    texts,
    app.config.lineMessaging.mode !== "disabled",
    requestNow(request, app.config),
  );
  return data({ count, problems: [] }, { headers: { "Cache-Control": "private, no-store" } });
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
