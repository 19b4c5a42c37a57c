import { STORE_SERVICES } from "@platform/db/schema/catalog";
import { Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StoreFormFields } from "~/components/console/store-form-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requirePermission } from "~/domain/staff/guard.server";
import { createStore } from "~/domain/stores/console.server";
import { parseStoreForm } from "~/domain/stores/editor";
import { isoDate } from "~/domain/stores/hours";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { taipeiDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/new";
import { districtChoices, storeFormFailure, storeFormValues, translateErrors } from "./stores.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.new.title");

const DEFAULT_HOURS: Record<string, string> = Object.fromEntries(
  [0, 1, 2, 3, 4, 5, 6].map((d) => [`hours${d}`, "10:30–21:00"]),
);

/** A new store (admins): created unpublished, then edited, previewed and published from its editor. */
export function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  return { districts: districtChoices(getLocale(request), serverT(request)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "catalog.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const parsed = parseStoreForm(form, isoDate(taipeiDate(now)), { requireId: true });
  if (!parsed.ok) return storeFormFailure(form, translateErrors(parsed.errors, t), t);
  try {
    await createStore(app.db, actor, parsed.id, parsed.content, consoleAudit(context, request), now);
  } catch (error) {
    return consoleFailure(error, null, t, { values: storeFormValues(form) });
  }
  return redirect(`/admin/stores/${parsed.id}?done=created`);
}

export default function NewStore({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const services = form.value("services").split(",").filter(Boolean);
  const filled = form.state?.values ? Object.keys(form.state.values).filter((k) => /^ex\d+Date$/.test(k)).length : 0;
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/stores", label: t("console.stores.back") }}
      title={t("console.stores.new.title")}
      lead={t("console.stores.new.lead")}
    >
      <Form method="post" className="mt-6 space-y-6">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <StoreFormFields
          withId
          values={(field) => form.value(field, DEFAULT_HOURS[field] ?? "")}
          errors={form.errors}
          services={services}
          allServices={STORE_SERVICES}
          districts={loaderData.districts}
          exceptionRows={Math.max(filled, 3)}
        />
        <Button type="submit" pending={pending}>
          {t("console.stores.new.submit")}
        </Button>
      </Form>
    </ConsolePage>
  );
}
