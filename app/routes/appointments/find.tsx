import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { PhoneCodeFields } from "~/components/appointments/phone-code-fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Link } from "~/components/ui/link";
import { guestAppointmentsOfPhone } from "~/domain/appointments/appointments.server";
import { whenText } from "~/domain/appointments/display";
import { checkGuestCode, sendGuestCode } from "~/domain/appointments/guest.server";
import { guestManageToken } from "~/domain/appointments/manage-link.server";
import { formatTaiwanMobile, normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, readForm } from "~/lib/forms.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/find";

/**
 * "Find my booking" for a guest who lost their booking's link (ADR 044, "a guest's own page"): the booking's phone,
 * verified by a code (the booking's code machinery: hashed, single use, 5 tries, the send limits per number and
 * IP), then that number's guest bookings, each by its link. Nothing is said about a number before its code is
 * right, so the page tells no one whether a number has bookings.
 */
export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "appointments.find.title"),
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export function loader({ request }: Route.LoaderArgs) {
  return { messages: routeMessages(getLocale(request), "appointments.") };
}

const findSchema = z.object({
  intent: z.enum(["code", "find"]),
  phone: z.string().max(20),
  code: z.string().max(12).optional(),
});

type Found = { reference: string; kind: string; status: string; store: string; when: string; href: string };

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const locale = getLocale(request);
  const now = requestNow(request, app.config);
  const form = await readForm(request);
  const parsed = findSchema.safeParse(Object.fromEntries(form));
  const phone = parsed.success ? normalizeTaiwanMobile(parsed.data.phone) : null;
  if (!parsed.success || !phone) {
    return formFailure({ errors: { phone: [t("appointments.guest.phoneInvalid")] }, values: formValues(form) });
  }
  const deps = { db: app.db, messaging: app.messaging, secret: app.config.secrets.session };
  if (parsed.data.intent === "code") {
    const sent = await sendGuestCode(deps, { phone, ip: app.ip, locale }, now);
    if (!sent.ok) {
      return formFailure({ errors: { phone: [t("appointments.guest.tooMany")] }, values: formValues(form) }, 429);
    }
    return { codeSent: formatTaiwanMobile(phone), values: formValues(form) };
  }
  const checked = await checkGuestCode(deps, { phone, code: parsed.data.code ?? "" }, now);
  if (!checked.ok) {
    return formFailure(
      {
        errors: { code: [t("appointments.guest.codeWrong")] },
        values: { ...formValues(form), codeSent: formatTaiwanMobile(phone) },
      },
      400,
    );
  }
  const rows = await guestAppointmentsOfPhone(app.db, phone);
  const found: Found[] = rows.map((r) => ({
    reference: r.reference,
    kind: r.kind,
    status: r.status,
    store: pick(r.storeName, locale),
    when: whenText(r.startsAt, r.endsAt, locale),
    href: links.guestAppointment(guestManageToken(app.config.secrets.session, r.id)),
  }));
  return data({ found });
}

export default function FindAppointment({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const answer = actionData as { codeSent?: string; found?: Found[]; values?: Record<string, string> } | undefined;
  const codeSent = answer?.codeSent ?? answer?.values?.codeSent ?? null;
  if (answer?.found) {
    return (
      <Page title={t("appointments.find.title")} width="narrow">
        <section aria-labelledby="found-title" className="space-y-4">
          <h2 id="found-title" className="font-serif text-xl font-semibold">
            {t("appointments.find.results")}
          </h2>
          {answer.found.length === 0 ? <Alert tone="info">{t("appointments.find.none")}</Alert> : null}
          <ul className="space-y-3">
            {answer.found.map((f) => (
              <li key={f.reference}>
                <Link
                  to={f.href}
                  className="block rounded-3xl border border-line bg-white p-5 no-underline"
                  data-testid="found-appointment"
                >
                  <span className="rounded-full bg-sand px-3 py-1 text-sm">
                    {t(`appointments.status.${f.status}` as MessageKey)}
                  </span>
                  <span className="mt-3 block font-medium">
                    {f.store}・{t(`appointments.kind.${f.kind}` as MessageKey)}
                  </span>
                  <span className="block text-muted">{f.when}</span>
                  <span className="block text-sm text-muted">
                    {t("appointments.detail.reference")} {f.reference}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </Page>
    );
  }
  return (
    <Page title={t("appointments.find.title")} lead={t("appointments.find.lead")} width="narrow">
      <Form method="post" className="space-y-4 rounded-3xl border border-line bg-white p-5" noValidate>
        <PhoneCodeFields
          t={t}
          form={form}
          phoneName="phone"
          codeSent={codeSent}
          pending={pending}
          sendIntent="code"
          submit={{ intent: "find", label: t("appointments.find.submit") }}
        />
      </Form>
    </Page>
  );
}
