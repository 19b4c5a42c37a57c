import type { AppointmentKind } from "@platform/db/schema/appointments";
import { data, Form, redirect, useActionData, useNavigation } from "react-router";
import { z } from "zod";
import { appointmentFailure, bookingQuery, bookingSchema, materialIdsOf } from "~/adapters/appointments.server";
import { getApp } from "~/adapters/context.server";
import { getMemberSession, requireMember } from "~/adapters/current-member.server";
import { PhoneCodeFields } from "~/components/appointments/phone-code-fields";
import { type PickerDay, SlotPicker } from "~/components/appointments/slot-picker";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { ErrorList, Field, TextareaField } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { NativeSelectField } from "~/components/ui/native-select";
import {
  bookAppointment,
  bookableStore,
  freeTimes,
  storesTakingBookings,
} from "~/domain/appointments/appointments.server";
import { dayLabel } from "~/domain/appointments/display";
import { checkGuestCode, sendGuestCode } from "~/domain/appointments/guest.server";
import { guestManageToken } from "~/domain/appointments/manage-link.server";
import { APPOINTMENT_MESSAGES_QUEUE } from "~/domain/appointments/messages.server";
import { bookableDays, parseDay } from "~/domain/appointments/rules";
import { listFavourites } from "~/domain/materials/favourites.server";
import { formatTaiwanMobile, normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { CITIES } from "~/domain/stores/cities";
import { isoDate } from "~/domain/stores/hours";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/book";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "appointments.title");

function bookHref(params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v) as [string, string][]);
  return `${links.bookAppointment()}?${query}`;
}

/**
 * Booking a showroom appointment (issue 37 part 1): store → kind → day → free time (Taipei) → materials from the
 * member's favourites, a note and, for 丈量, the address. Each step is the page's query (links, no script); the
 * booking itself is one POST for a signed-in member.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, config);
  const url = new URL(request.url);
  const q = bookingQuery(url);
  const session = getMemberSession(context);
  const messages = routeMessages(locale, "appointments.", "catalog.city.");
  const guestQuery = new URLSearchParams(url.search);
  guestQuery.set("guest", "1");
  const base = {
    messages,
    signedIn: Boolean(session?.member),
    loginHref: links["member-login"](url.pathname + url.search),
    guest: !session?.member && url.searchParams.get("guest") === "1",
    guestHref: `${url.pathname}?${guestQuery}`,
  };

  const chosen = q.store ? await bookableStore(db, q.store) : null;
  if (!chosen) {
    const stores = await storesTakingBookings(db);
    return {
      ...base,
      step: "store" as const,
      stores: stores.map((s) => ({
        id: s.id,
        name: pick(s.name, locale),
        city: s.city,
        href: bookHref({ store: s.id, material: q.material, guest: base.guest ? "1" : null }),
      })),
    };
  }
  const store = { id: chosen.id, name: pick(chosen.name, locale) };
  const changeStoreHref = bookHref({ material: q.material });
  const kinds = chosen.kinds.map((k) => ({
    kind: k.kind,
    minutes: k.durationMinutes,
    href: bookHref({ store: chosen.id, kind: k.kind, material: q.material, guest: base.guest ? "1" : null }),
  }));
  const settings = chosen.kinds.find((k) => k.kind === q.kind);
  if (!settings) return { ...base, step: "kind" as const, store, changeStoreHref, kinds };

  const { bookingHorizonDays } = await showroomSettings(db);
  const days = bookableDays(now, settings, bookingHorizonDays).map((d) => isoDate(d));
  const date = q.date && days.includes(q.date) ? q.date : (days[0] ?? "");
  const day = parseDay(date);
  const times = day ? await freeTimes(db, chosen.id, settings.kind, day, now) : [];
  const favourites = session?.member ? await listFavourites(db, session.member.id) : [];
  return {
    ...base,
    step: "time" as const,
    store,
    changeStoreHref,
    kinds,
    kind: settings.kind,
    minutes: settings.durationMinutes,
    date,
    days: days.map(
      (iso): PickerDay => ({
        iso,
        ...dayLabel(iso, locale),
        href: bookHref({
          store: chosen.id,
          kind: settings.kind,
          date: iso,
          material: q.material,
          guest: base.guest ? "1" : null,
        }),
      }),
    ),
    times: times.map((f) => ({ time: f.time, left: f.left })),
    favourites: favourites.map((f) => ({ id: f.id, name: pick(f.name, locale) })),
    material: q.material,
    cities: CITIES,
  };
}

type GuestAnswer = { guestCodeSent?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const form = await readForm(request);
  const intent = form.get("intent");
  const session = getMemberSession(context);
  // A member books as themself; a visitor either logs in or books as a guest with a verified phone.
  if (!session?.member && intent !== "guest-code" && intent !== "guest-book") {
    return requireMember(context, request);
  }
  const parsed = parseForm(bookingSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("appointments.error.fix") });
  const materialIds = materialIdsOf(form);
  if (materialIds === null) {
    return formFailure({
      errors: { materials: [t("appointments.error.bad_material")] },
      values: formValues(form),
      formError: t("appointments.error.fix"),
    });
  }
  const input = parsed.data;
  const locale = getLocale(request);
  const booking = {
    storeId: input.store,
    kind: input.kind as AppointmentKind,
    date: input.date,
    time: input.time,
    materialIds,
    note: input.note,
    address:
      input.kind === "measuring"
        ? { city: input.city ?? "", district: input.district ?? "", street: input.street ?? "" }
        : null,
    locale,
    // Inside LINE (LIFF) the in-app browser says `Line/<version>` (app/lib/liff-detect.ts).
    source: /\bLine\/\d/i.test(request.headers.get("user-agent") ?? "") ? ("liff" as const) : ("web" as const),
  };

  if (!session?.member) {
    const guest = guestSchema(t).safeParse(Object.fromEntries(form));
    if (!guest.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of guest.error.issues) errors[String(issue.path[0])] = [issue.message];
      return formFailure({ errors, values: formValues(form), formError: t("appointments.error.fix") });
    }
    const phone = normalizeTaiwanMobile(guest.data.guestPhone);
    if (!phone) {
      return formFailure({
        errors: { guestPhone: [t("appointments.guest.phoneInvalid")] },
        values: formValues(form),
      });
    }
    const deps = { db: app.db, messaging: app.messaging, secret: app.config.secrets.session };
    if (intent === "guest-code") {
      const sent = await sendGuestCode(deps, { phone, ip: app.ip, locale }, now);
      if (!sent.ok) {
        return formFailure(
          { errors: { guestPhone: [t("appointments.guest.tooMany")] }, values: formValues(form) },
          429,
        );
      }
      return data({ ...formAnswer(form), guestCodeSent: formatTaiwanMobile(phone) } satisfies GuestAnswer);
    }
    const checked = await checkGuestCode(deps, { phone, code: guest.data.code ?? "" }, now);
    if (!checked.ok) {
      return formFailure(
        {
          errors: { code: [t("appointments.guest.codeWrong")] },
          values: { ...formValues(form), codeSent: formatTaiwanMobile(phone) },
        },
        400,
      );
    }
    let row: { id: string };
    try {
      row = await bookAppointment(
        app.db,
        { memberId: null, phone },
        { ...booking, guestName: guest.data.guestName },
        now,
      );
    } catch (error) {
      return appointmentFailure(error, form, t);
    }
    await queueConfirmation(app);
    // The guest's own page, by the link their texts carry too (ADR 044, "a guest's own page").
    return redirect(`${links.guestAppointment(guestManageToken(app.config.secrets.session, row.id))}?booked=1`);
  }

  let booked: { id: string };
  try {
    booked = await bookAppointment(
      app.db,
      { memberId: session.member.id, phone: session.member.phoneNumber },
      booking,
      now,
    );
  } catch (error) {
    return appointmentFailure(error, form, t);
  }
  await queueConfirmation(app);
  return redirect(`${links.memberAppointment(booked.id)}?booked=1`);
}

/** The confirmation goes at once (the job's pass), not at the next minute's. */
async function queueConfirmation(app: ReturnType<typeof getApp>) {
  await app.jobs
    .send(APPOINTMENT_MESSAGES_QUEUE, {})
    .catch((error) => app.logger.warn({ err: error }, "appointment confirmation not queued"));
}

/** The values as typed, for the next step of a guest's form (the code field appears). */
function formAnswer(form: FormData) {
  return { values: formValues(form) };
}

function guestSchema(t: ReturnType<typeof serverT>) {
  return z.object({
    guestName: z
      .string()
      .trim()
      .min(1, t("appointments.guest.nameRequired"))
      .max(40, t("appointments.guest.nameRequired")),
    guestPhone: z
      .string()
      .trim()
      .min(1, t("appointments.guest.phoneInvalid"))
      .max(20, t("appointments.guest.phoneInvalid")),
    code: z.string().max(12).optional(),
  });
}

export default function BookAppointmentPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const answer = useActionData() as (GuestAnswer & { values?: Record<string, string> }) | undefined;
  const codeSent = answer?.guestCodeSent ?? answer?.values?.codeSent ?? null;
  const data = loaderData;
  return (
    <Page title={t("appointments.title")} lead={t("appointments.lead")} width="narrow">
      {data.signedIn ? null : (
        <p className="mb-6">
          <Link to={links.findAppointment()} className="underline underline-offset-4">
            {t("appointments.find.link")}
          </Link>
        </p>
      )}
      {data.step === "store" ? (
        <section aria-labelledby="step-store" className="space-y-3">
          <h2 id="step-store" className="font-serif text-xl font-semibold">
            {t("appointments.chooseStore")}
          </h2>
          {data.stores.length === 0 ? <p className="text-muted">{t("appointments.noStores")}</p> : null}
          <ul className="space-y-2">
            {data.stores.map((s) => (
              <li key={s.id}>
                <Link
                  to={s.href}
                  className="flex min-h-12 items-center justify-between rounded-2xl border border-line bg-white px-4 py-3 hover:border-ink"
                >
                  <span className="font-medium">{s.name}</span>
                  <span className="text-sm text-muted">{t(`catalog.city.${s.city}` as MessageKey)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <div className="space-y-6">
          <div className="flex items-center justify-between gap-3 rounded-2xl bg-sand px-4 py-3">
            <p>
              <span className="block text-xs text-muted">{t("appointments.step.store")}</span>
              <span className="font-semibold" data-testid="booking-store">
                {data.store.name}
              </span>
            </p>
            <Link to={data.changeStoreHref} className="min-h-11 content-center text-sm underline underline-offset-4">
              {t("appointments.change")}
            </Link>
          </div>

          {data.kinds.length === 0 ? (
            <Alert>{t("appointments.noKinds")}</Alert>
          ) : (
            <nav aria-labelledby="step-kind" className="space-y-2">
              <h2 id="step-kind" className="text-sm font-medium text-ink">
                {t("appointments.step.kind")}
              </h2>
              <ul className="grid gap-2" data-testid="appointment-kinds">
                {data.kinds.map((k) => {
                  const current = data.step === "time" && data.kind === k.kind;
                  return (
                    <li key={k.kind}>
                      <Link
                        to={k.href}
                        replace
                        aria-current={current ? "step" : undefined}
                        className={
                          current
                            ? "block rounded-2xl border-2 border-ink bg-white px-4 py-3"
                            : "block rounded-2xl border border-line bg-white px-4 py-3 hover:border-ink"
                        }
                      >
                        <span className="font-semibold">{t(`appointments.kind.${k.kind}` as MessageKey)}</span>
                        <span className="block text-sm text-muted">
                          {t(`appointments.kindLead.${k.kind}` as MessageKey, { minutes: k.minutes })}
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </nav>
          )}

          {data.step === "time" ? (
            <>
              {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
              {data.signedIn || data.guest ? null : (
                <Alert>
                  {t("appointments.loginLead")}{" "}
                  <Link to={data.loginHref} className="font-semibold underline underline-offset-4">
                    {t("appointments.login")}
                  </Link>
                </Alert>
              )}
              <Form method="post" className="space-y-6" noValidate preventScrollReset>
                <input type="hidden" name="store" value={data.store.id} />
                <input type="hidden" name="kind" value={data.kind} />
                {/* A forged or withdrawn store or kind: said above the day and time, which are asked again. */}
                <ErrorList errors={[...(form.errors("store") ?? []), ...(form.errors("kind") ?? [])]} />
                {!data.signedIn && data.material ? (
                  <input type="hidden" name="materials" value={data.material} />
                ) : null}
                <SlotPicker
                  t={t}
                  days={data.days}
                  date={data.date}
                  times={data.times}
                  selectedTime={form.value("time")}
                  dateErrors={form.errors("date")}
                  timeErrors={form.errors("time")}
                />
                {data.kind === "measuring" ? (
                  <fieldset className="space-y-3">
                    <legend className="text-sm font-medium text-ink">{t("appointments.address")}</legend>
                    <NativeSelectField
                      label={t("appointments.city")}
                      errors={form.errors("city")}
                      selectProps={{ name: "city", defaultValue: form.value("city"), required: true }}
                    >
                      <option value="">{t("appointments.chooseCity")}</option>
                      {data.cities.map((c) => (
                        <option key={c} value={c}>
                          {t(`catalog.city.${c}` as MessageKey)}
                        </option>
                      ))}
                    </NativeSelectField>
                    <Field
                      label={t("appointments.district")}
                      errors={form.errors("district")}
                      inputProps={{
                        name: "district",
                        defaultValue: form.value("district"),
                        maxLength: 40,
                        required: true,
                      }}
                    />
                    <Field
                      label={t("appointments.street")}
                      errors={form.errors("street")}
                      inputProps={{
                        name: "street",
                        defaultValue: form.value("street"),
                        maxLength: 160,
                        required: true,
                        autoComplete: "street-address",
                      }}
                    />
                  </fieldset>
                ) : null}
                {data.signedIn ? (
                  <fieldset className="space-y-2">
                    <legend className="text-sm font-medium text-ink">{t("appointments.materials")}</legend>
                    {data.favourites.length === 0 ? (
                      <p className="text-sm text-muted">{t("appointments.materialsNone")}</p>
                    ) : (
                      <ul className="space-y-1" data-testid="appointment-materials">
                        {data.favourites.map((m) => (
                          <li key={m.id}>
                            <label className="flex min-h-11 items-center gap-3 rounded-xl px-2 hover:bg-sand">
                              <input
                                type="checkbox"
                                name="materials"
                                value={m.id}
                                defaultChecked={m.id === data.material}
                                className="size-5 accent-ink"
                              />
                              {m.name}
                            </label>
                          </li>
                        ))}
                      </ul>
                    )}
                    <ErrorList errors={form.errors("materials")} />
                  </fieldset>
                ) : null}
                <TextareaField
                  label={t("appointments.note")}
                  description={t("appointments.noteHint")}
                  errors={form.errors("note")}
                  textareaProps={{ name: "note", defaultValue: form.value("note"), maxLength: 500 }}
                />
                {data.signedIn ? (
                  <Button type="submit" block size="lg" pending={pending} disabled={data.times.length === 0}>
                    {t("appointments.submit")}
                  </Button>
                ) : data.guest ? (
                  <fieldset className="space-y-3 rounded-2xl border border-line bg-white p-4">
                    <legend className="px-1 font-semibold">{t("appointments.guest.title")}</legend>
                    <p className="text-sm text-muted">{t("appointments.guest.lead")}</p>
                    <Field
                      label={t("appointments.guest.name")}
                      errors={form.errors("guestName")}
                      inputProps={{
                        name: "guestName",
                        defaultValue: form.value("guestName"),
                        maxLength: 40,
                        autoComplete: "name",
                        required: true,
                      }}
                    />
                    <PhoneCodeFields
                      t={t}
                      form={form}
                      phoneName="guestPhone"
                      codeSent={codeSent}
                      pending={pending}
                      sendIntent="guest-code"
                      submit={{
                        intent: "guest-book",
                        label: t("appointments.submit"),
                        disabled: data.times.length === 0,
                      }}
                    />
                  </fieldset>
                ) : (
                  <div className="space-y-3">
                    <Link to={data.loginHref} className={buttonVariants({ size: "lg", block: true })}>
                      {t("appointments.login")}
                    </Link>
                    <Link
                      to={data.guestHref}
                      className="flex min-h-11 items-center justify-center underline underline-offset-4"
                    >
                      {t("appointments.guestLink")}
                    </Link>
                  </div>
                )}
              </Form>
            </>
          ) : null}
        </div>
      )}
    </Page>
  );
}
