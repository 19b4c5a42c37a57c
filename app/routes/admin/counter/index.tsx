import { data, redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { counterActor, counterFailure } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { DayList } from "~/components/console/counter/day-list";
import { MemberFinder, TaskLinks } from "~/components/console/counter/start";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { counterDay, storeName } from "~/domain/counter/counter.server";
import { lookupSchema } from "~/domain/counter/forms.server";
import { findMemberAtCounter } from "~/domain/loyalty/member-lookup.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.title");

/** The counter's start: find the member (camera or typed), the other tasks, and this store's day. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const [day, name] = storeId ? await Promise.all([counterDay(app.db, storeId, now), storeName(app.db, storeId)]) : [];
  return {
    store: storeId ? { id: storeId, name: pick(name ?? null, getLocale(request)) || storeId } : null,
    today: now.toISOString(),
    day: day ?? null,
    can: {
      refund: hasPermission(actor, "counter.refund", { storeId }),
      coupon: hasPermission(actor, "counter.coupon", { storeId }),
    },
  };
}

/** Looks the member up (card token, phone in any spelling sign-up accepts, or member number) and opens the summary. */
export async function action({ request, context }: Route.ActionArgs) {
  const { storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = {
    query: String(form.get("query") ?? "")
      .trim()
      .slice(0, 60),
  };
  if (!storeId) return data({ errors: {}, values, formError: t("console.counter.store.none") }, { status: 409 });
  const parsed = parseForm(lookupSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  try {
    const found = await findMemberAtCounter(app.db, parsed.data.query, {
      cardSecret: app.config.secrets.session,
      now: requestNow(request, app.config),
      audit: consoleAudit(context, request),
    });
    return redirect(`/admin/counter/member/${found.id}`);
  } catch (error) {
    // A scanned card's refusal goes above the form, a typed one's beside the field.
    return counterFailure(error, { t }, { values, field: parsed.data.scanned ? undefined : "query" });
  }
}

export default function Counter({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const { store, day, can } = loaderData;
  return (
    <ConsolePage pace="counter" width="5xl" title={t("console.counter.title")} lead={t("console.counter.lead")}>
      {store ? null : (
        <Alert tone="info" className="mt-6">
          {t("console.counter.store.none")}
        </Alert>
      )}
      <div className="mt-6 grid gap-5 md:grid-cols-[3fr_2fr]">
        <MemberFinder />
        <TaskLinks can={can} />
      </div>
      {store && day ? <DayList store={store.name} today={loaderData.today} day={day} /> : null}
    </ConsolePage>
  );
}
