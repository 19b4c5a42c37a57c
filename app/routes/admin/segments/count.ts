import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { audienceSchema } from "~/domain/member-messages/campaign-form.server";
import { campaignFormValues } from "~/domain/member-messages/campaign-values";
import { audienceChoicesNamed } from "~/domain/member-messages/showroom-audience.server";
import { countSegment } from "~/domain/segments/segments.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { consoleResource } from "~/lib/console-resource.server";
import { serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/count";

/**
 * The segment builder's live count (GET, admins; ADR 056): how many members the filters name. The query string is
 * read by the campaign's own filter schema (Zod) before any work: bad filters (an unknown choice, a NUL byte)
 * answer 400 with the fields; nothing is written. A refusal is the console's error page for a person who opens
 * the address (console-resource.server.ts).
 */
const resource = consoleResource(async ({ request, context }: Route.LoaderArgs) => {
  requirePermission(context, "messages.manage");
  const app = getApp(context);
  const params = new URL(request.url).searchParams;
  const values = campaignFormValues(params);
  // Only the category and the store the filters name are read (none for most counts): not every choice each time.
  const parsed = audienceSchema(serverT(request), await audienceChoicesNamed(app.db, values)).safeParse(values);
  if (!parsed.success) {
    return data({ count: null, problems: parsed.error.issues.map((i) => String(i.path[0])) }, { status: 400 });
  }
  const count = await countSegment(app.db, parsed.data, requestNow(request, app.config));
  return data({ count, problems: [] }, { headers: { "Cache-Control": "private, no-store" } });
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
