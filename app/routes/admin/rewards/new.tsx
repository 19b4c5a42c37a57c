import { redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { RewardForm } from "~/components/console/reward-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { createReward } from "~/domain/programme/rewards.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/new";
import { readRewardForm, rewardRefusal } from "./rewards.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.programme.reward.newTitle");

/** A new reward (admins, `programme.edit`); on the member center as soon as it is saved (ADR 029). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "programme.edit");
  return {
    stores: await storeChoicesFor(getApp(context).db, actor, getLocale(request)),
    canUpload: hasPermission(actor, "catalog.edit"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "programme.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const parsed = await readRewardForm(app.db, form, t, { stores, withStock: true });
  if (!parsed.ok) return parsed.answer;
  try {
    const now = requestNow(request, app.config);
    const created = await createReward(app.db, actor, parsed.data, consoleAudit(context, request), now);
    return redirect(`/admin/rewards/${created.id}?created=1`);
  } catch (error) {
    return rewardRefusal(app.db, error, form, t);
  }
}

export default function NewReward({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/rewards", label: t("console.programme.reward.back") }}
      title={t("console.programme.reward.newTitle")}
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
    >
      <section className="mt-6 rounded-2xl border border-line bg-white p-5">
        <RewardForm
          stores={loaderData.stores}
          submitLabel={t("console.programme.reward.create")}
          picture={null}
          canUpload={loaderData.canUpload}
        />
      </section>
    </ConsolePage>
  );
}
