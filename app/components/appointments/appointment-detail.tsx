import { Form, useNavigation } from "react-router";
import { BackLink } from "~/components/appointments/back-link";
import { SlotPicker } from "~/components/appointments/slot-picker";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { type MessageKey, useT } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";

/** One booking's page as its loader answers it (app/adapters/appointment-page.server.ts): every value already text. */
export type AppointmentPageView = {
  messages: Record<string, string>;
  booked: boolean;
  appointment: {
    id: string;
    reference: string;
    version: number;
    kind: string;
    status: string;
    store: string;
    storeId: string;
    storeAddress: string;
    storePhone: string | null;
    when: string;
    time: string;
    materials: string[];
    note: string | null;
    address: { city: string; district: string; street: string } | null;
  };
  changeable: boolean;
  cutoff: string;
  reminderHour: number;
  reschedule: {
    date: string;
    days: { iso: string; weekday: string; day: string; href: string }[];
    times: { time: string; left: number }[];
  } | null;
  icsHref: string;
  icsName: string;
  googleHref: string;
  back: { href: string; label: "appointments.detail.back" | "appointments.manage.back" };
  guest: boolean;
};

const TEST_IDS: Partial<Record<MessageKey, string>> = {
  "appointments.detail.reference": "appointment-reference",
  "appointments.detail.when": "appointment-when",
};

/**
 * One booking (app/adapters/appointment-page.server.ts), the same for a member in the member center and a guest by
 * their link: status, what, where and when, the calendar, and until the cut-off a new time or a cancellation.
 */
export function AppointmentDetail({ loaderData }: { loaderData: AppointmentPageView }) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const { appointment: a, reschedule } = loaderData;
  const rows: [MessageKey, string][] = [
    ["appointments.detail.reference", a.reference],
    ["appointments.detail.kind", t(`appointments.kind.${a.kind}` as MessageKey)],
    ["appointments.detail.store", `${a.store}（${a.storeAddress}）`],
    ["appointments.detail.when", a.when],
  ];
  if (a.materials.length) rows.push(["appointments.detail.materials", a.materials.join("、")]);
  if (a.note) rows.push(["appointments.detail.note", a.note]);
  if (a.address) {
    rows.push([
      "appointments.detail.address",
      `${t(`catalog.city.${a.address.city}` as MessageKey)} ${a.address.district} ${a.address.street}`,
    ]);
  }
  return (
    <Page
      title={loaderData.booked ? t("appointments.confirmed.title") : t("appointments.detail.title")}
      lead={loaderData.booked ? t("appointments.confirmed.lead", { hour: loaderData.reminderHour }) : undefined}
      width="narrow"
    >
      <BackLink to={loaderData.back.href} label={t(loaderData.back.label)} />
      <div className="space-y-8">
        <section className="rounded-3xl border border-line bg-white p-5" aria-label={t("appointments.detail.title")}>
          <p className="mb-3">
            <span className="rounded-full bg-sand px-3 py-1 text-sm" data-testid="appointment-status">
              {t(`appointments.status.${a.status}` as MessageKey)}
            </span>
          </p>
          <dl className="space-y-3">
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm text-muted">{t(label)}</dt>
                <dd className="font-medium" data-testid={TEST_IDS[label]}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {a.status === "booked" ? (
            <div className="mt-5 flex flex-wrap gap-2">
              <a
                href={loaderData.icsHref}
                download={loaderData.icsName}
                className={buttonVariants({ variant: "secondary", size: "sm" })}
              >
                {t("appointments.detail.ics")}
              </a>
              <a
                href={loaderData.googleHref}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonVariants({ variant: "secondary", size: "sm" })}
              >
                {t("appointments.detail.google")}
              </a>
            </div>
          ) : null}
        </section>

        {loaderData.guest && loaderData.changeable ? (
          <Alert tone="info">{t("appointments.manage.keep", { cutoff: loaderData.cutoff })}</Alert>
        ) : null}

        {a.status === "booked" && !loaderData.changeable ? (
          <Alert>{t("appointments.detail.cutoff", { cutoff: loaderData.cutoff })}</Alert>
        ) : null}

        {reschedule ? (
          <section id="reschedule" aria-labelledby="reschedule-title" className="space-y-4">
            <h2 id="reschedule-title" className="font-serif text-xl font-semibold">
              {t("appointments.detail.reschedule")}
            </h2>
            <p className="text-muted">{t("appointments.detail.rescheduleLead")}</p>
            {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
            <Form method="post" className="space-y-5" noValidate preventScrollReset>
              <input type="hidden" name="intent" value="reschedule" />
              <input type="hidden" name="version" value={a.version} />
              <SlotPicker
                t={t}
                days={reschedule.days}
                date={reschedule.date}
                times={reschedule.times}
                selectedTime={form.value("time")}
                dateErrors={form.errors("date")}
                timeErrors={form.errors("time")}
              />
              <Button
                type="submit"
                block
                pending={pendingIntent === "reschedule"}
                disabled={reschedule.times.length === 0}
              >
                {t("appointments.detail.rescheduleSubmit")}
              </Button>
            </Form>
          </section>
        ) : null}

        {loaderData.changeable ? (
          <Form
            method="post"
            preventScrollReset
            onSubmit={(event) => {
              if (!window.confirm(t("appointments.detail.cancelConfirm"))) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="secondary" block pending={pendingIntent === "cancel"}>
              {t("appointments.detail.cancel")}
            </Button>
          </Form>
        ) : null}
      </div>
    </Page>
  );
}
