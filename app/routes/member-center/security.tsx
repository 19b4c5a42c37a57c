import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { AccountNav, AccountSection } from "~/components/account/account-nav";
import { AddPasskeyButton } from "~/components/account/add-passkey-button";
import { CurrentPasswordField } from "~/components/auth/current-password-field";
import { NewPasswordFields } from "~/components/auth/fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { listSessions, revokeOtherSessions, revokeSession } from "~/domain/auth/active-sessions.server";
import { newPasswordSchema } from "~/domain/auth/auth-schemas.server";
import { hasPasswordLogin, isRecentLogin } from "~/domain/auth/identity.server";
import { listPasskeys, removePasskey, renamePasskey } from "~/domain/auth/passkeys.server";
import { changePassword } from "~/domain/auth/password-change.server";
import { passwordProblemMessage } from "~/domain/auth/password-messages";
import { describeUserAgent } from "~/domain/auth/user-agent";
import { listCardDevices, revokeCardDevices } from "~/domain/loyalty/card-devices.server";
import { fieldFailure, formFailure, formValues, parseForm, readForm, tooManyRequestsText } from "~/lib/forms.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.security.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const { db } = getApp(context);
  const locale = getLocale(request);
  const [sessions, passkeys, hasPassword, recent, cardDevices] = await Promise.all([
    listSessions(db, session.userId, session.sessionId),
    listPasskeys(db, session.userId),
    hasPasswordLogin(db, session.userId),
    isRecentLogin(db, session.sessionId),
    listCardDevices(db, session.member.id),
  ]);
  return {
    messages: routeMessages(locale, "account.nav.", "account.security.", "account.editInfo.reauthLink"),
    hasPassword,
    canAddPasskey: recent,
    sessions: sessions.map((s) => ({
      id: s.id,
      current: s.current,
      ...describeUserAgent(s.userAgent),
      ipAddress: s.ipAddress,
      lastActive: formatTaipei(s.lastActiveAt, locale, "dateTime"),
      signedIn: formatTaipei(s.createdAt, locale, "dateTime"),
    })),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      backedUp: p.backedUp,
      created: p.createdAt ? formatTaipei(p.createdAt, locale, "date") : null,
    })),
    // The offline member card's devices (ADR 043): name is "<device>/<browser>" from the user agent.
    cardDevices: cardDevices.map((d) => {
      const [device = "other", browser = "other"] = d.name.split("/");
      return {
        id: d.id,
        device,
        browser,
        added: formatTaipei(d.createdAt, locale, "dateTime"),
        lastUsed: d.lastUsedAt ? formatTaipei(d.lastUsedAt, locale, "dateTime") : null,
      };
    }),
  };
}

const passkeyNameSchema = (t: ReturnType<typeof serverT>) =>
  z.object({
    id: z.string().min(1).max(100),
    name: z
      .string({ error: t("account.security.passkeys.nameInvalid") })
      .trim()
      .min(1, t("account.security.passkeys.nameInvalid"))
      .max(40, t("account.security.passkeys.nameInvalid")),
  });

/**
 * Every intent acts on the session's own user: a session or passkey id of another member matches
 * nothing (the domain functions filter by user id) and answers 404.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const toast = (message: MessageKey) =>
    redirectWithToast(toastSettings(context), links.security(), { type: "success", message });

  if (intent === "change-password") {
    const parsed = parseForm(
      newPasswordSchema(t).and(z.object({ currentPassword: z.string().min(1, t("form.required")).max(128) })),
      form,
    );
    if (!parsed.ok) return formFailure({ ...parsed.failure, formError: "password" });
    const phone = session.member.phoneNumber;
    const result = await changePassword(authDeps(context), {
      userId: session.userId,
      sessionId: session.sessionId,
      phoneNumber: phone,
      currentPassword: parsed.data.currentPassword,
      newPassword: parsed.data.password,
      userInputs: [phone, `0${phone.slice(4)}`, session.member.email ?? ""].filter(Boolean),
    });
    if (!result.ok) {
      const values = formValues(form, ["password", "confirmPassword", "currentPassword"]);
      const fail = (field: string, message: string, status = 400) =>
        formFailure({ errors: { [field]: [message] }, values, formError: "password" }, status);
      if (result.reason === "weak") return fail("password", t(passwordProblemMessage(result.problem)));
      if (result.reason === "rate_limited")
        return fail("currentPassword", tooManyRequestsText(result.retryAfterSeconds, t), 429);
      if (result.reason === "no_password") return fail("currentPassword", t("account.security.password.none"));
      return fail("currentPassword", t("account.security.password.wrong"));
    }
    // The other logins were ended with the change: their offline cards stop too (ADR 043).
    await revokeCardDevices(app.db, { otherThan: session.sessionId, memberId: session.member.id });
    return toast("notice.passwordChanged");
  }

  if (intent === "end-session") {
    const id = z.string().min(1).max(200).safeParse(form.get("sessionId"));
    if (!id.success || id.data === session.sessionId) {
      return fieldFailure(form, "sessions", t("account.security.sessions.notFound"), 404);
    }
    const ended = await revokeSession(app.db, session.userId, id.data);
    if (!ended) return fieldFailure(form, "sessions", t("account.security.sessions.notFound"), 404);
    // As if that login had logged out: the offline cards it registered stop (ADR 043).
    await revokeCardDevices(app.db, { session: id.data });
    return toast("notice.sessionEnded");
  }

  if (intent === "end-others") {
    await revokeOtherSessions(app.db, session.userId, session.sessionId);
    await revokeCardDevices(app.db, { otherThan: session.sessionId, memberId: session.member.id });
    return toast("notice.otherSessionsEnded");
  }

  if (intent === "rename-passkey") {
    const parsed = parseForm(passkeyNameSchema(t), form);
    if (!parsed.ok) {
      const id = String(form.get("id") ?? "");
      return formFailure({ ...parsed.failure, errors: { [`passkey-${id}`]: parsed.failure.errors.name ?? [] } });
    }
    const renamed = await renamePasskey(app.db, session.userId, parsed.data.id, parsed.data.name);
    if (!renamed) return fieldFailure(form, "passkeys", t("account.security.passkeys.notFound"), 404);
    return toast("notice.passkeyRenamed");
  }

  if (intent === "remove-passkey") {
    const id = z.string().min(1).max(100).safeParse(form.get("id"));
    const removed = id.success && (await removePasskey(app.db, session.userId, id.data));
    if (!removed) return fieldFailure(form, "passkeys", t("account.security.passkeys.notFound"), 404);
    return toast("notice.passkeyRemoved");
  }

  if (intent === "remove-card-device") {
    const id = z.uuid().safeParse(form.get("id"));
    const removed =
      id.success && (await revokeCardDevices(app.db, { device: id.data, memberId: session.member.id })) > 0;
    if (!removed) return fieldFailure(form, "cardDevices", t("account.security.cards.notFound"), 404);
    return toast("notice.cardDeviceRemoved");
  }

  return fieldFailure(form, "form", t("form.required"), 400);
}

export default function SecurityPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const navigation = useNavigation();
  const submittingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const passwordFailed = form.formError === "password";
  const others = loaderData.sessions.filter((s) => !s.current);
  const deviceName = (s: { device: string; browser: string }) =>
    `${t(`account.security.device.${s.device}` as MessageKey)} · ${t(`account.security.browser.${s.browser}` as MessageKey)}`;

  return (
    <Page title={t("account.security.title")} lead={t("account.security.lead")} width="narrow">
      <AccountNav t={t} />
      <div className="space-y-6">
        <AccountSection
          title={t("account.security.password.title")}
          lead={t("account.security.password.lead")}
          id="password"
        >
          {loaderData.hasPassword ? (
            <Form method="post" className="space-y-5" noValidate>
              <CurrentPasswordField
                name="currentPassword"
                label={t("account.security.password.current")}
                errors={passwordFailed ? form.errors("currentPassword") : null}
              />
              <NewPasswordFields
                errors={passwordFailed ? form.errors("password") : null}
                confirmErrors={passwordFailed ? form.errors("confirmPassword") : null}
              />
              <Button
                type="submit"
                name="intent"
                value="change-password"
                pending={submittingIntent === "change-password"}
              >
                {t("account.security.password.submit")}
              </Button>
            </Form>
          ) : (
            <p className="text-muted">{t("account.security.password.none")}</p>
          )}
        </AccountSection>

        <AccountSection
          title={t("account.security.sessions.title")}
          lead={t("account.security.sessions.lead")}
          id="sessions"
        >
          {form.errors("sessions") ? (
            <Alert tone="error" className="mb-4">
              {form.errors("sessions")?.[0]}
            </Alert>
          ) : null}
          <ul className="divide-y divide-line" data-testid="session-list">
            {loaderData.sessions.map((s) => (
              <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-4 first:pt-0 last:pb-0">
                <div className="min-w-0 space-y-0.5">
                  <p className="font-medium">
                    {deviceName(s)}
                    {s.current ? (
                      <span className="ml-2 rounded-full bg-success-700/10 px-2.5 py-0.5 text-sm font-normal text-success-700">
                        {t("account.security.sessions.current")}
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-muted">
                    {t("account.security.sessions.lastActive", { time: s.lastActive })}
                  </p>
                  <p className="text-sm text-muted">{t("account.security.sessions.signedIn", { time: s.signedIn })}</p>
                  <p className="text-sm text-muted">
                    {s.ipAddress
                      ? t("account.security.sessions.place", { ip: s.ipAddress })
                      : t("account.security.sessions.placeUnknown")}
                  </p>
                </div>
                {s.current ? null : (
                  <Form method="post">
                    <input type="hidden" name="sessionId" value={s.id} />
                    <Button
                      type="submit"
                      name="intent"
                      value="end-session"
                      variant="secondary"
                      size="sm"
                      aria-label={t("account.security.sessions.endAria", { device: deviceName(s) })}
                    >
                      {t("account.security.sessions.end")}
                    </Button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
          <div className="mt-5 border-t border-line pt-5">
            {others.length > 0 ? (
              <Form method="post">
                <Button
                  type="submit"
                  name="intent"
                  value="end-others"
                  variant="secondary"
                  pending={submittingIntent === "end-others"}
                >
                  {t("account.security.sessions.endOthers")}
                </Button>
              </Form>
            ) : (
              <p className="text-muted">{t("account.security.sessions.onlyThis")}</p>
            )}
          </div>
        </AccountSection>

        <AccountSection
          title={t("account.security.passkeys.title")}
          lead={t("account.security.passkeys.lead")}
          id="passkeys"
        >
          {form.errors("passkeys") ? (
            <Alert tone="error" className="mb-4">
              {form.errors("passkeys")?.[0]}
            </Alert>
          ) : null}
          {loaderData.passkeys.length === 0 ? (
            <p className="mb-5 text-muted">{t("account.security.passkeys.empty")}</p>
          ) : (
            <ul className="mb-5 divide-y divide-line" data-testid="passkey-list">
              {loaderData.passkeys.map((p) => {
                const name = p.name || t("account.security.passkeys.defaultName");
                return (
                  <li key={p.id} className="space-y-3 py-4 first:pt-0">
                    <div>
                      <p className="font-medium">{name}</p>
                      <p className="text-sm text-muted">
                        {p.created ? t("account.security.passkeys.created", { date: p.created }) : null}
                        {p.backedUp ? ` · ${t("account.security.passkeys.synced")}` : null}
                      </p>
                    </div>
                    <div className="flex flex-wrap items-end gap-2">
                      <Form method="post" className="flex flex-1 items-end gap-2">
                        <input type="hidden" name="id" value={p.id} />
                        <Field
                          className="flex-1"
                          label={t("account.security.passkeys.nameFor", { name })}
                          errors={form.errors(`passkey-${p.id}`)}
                          inputProps={{
                            name: "name",
                            maxLength: 40,
                            required: true,
                            defaultValue: form.errors(`passkey-${p.id}`) ? form.value("name") : (p.name ?? ""),
                          }}
                        />
                        <Button
                          type="submit"
                          name="intent"
                          value="rename-passkey"
                          variant="secondary"
                          size="sm"
                          className="mb-1"
                        >
                          {t("account.security.passkeys.rename")}
                        </Button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="id" value={p.id} />
                        <Button
                          type="submit"
                          name="intent"
                          value="remove-passkey"
                          variant="ghost"
                          size="sm"
                          className="mb-1 text-danger-700"
                          aria-label={t("account.security.passkeys.removeAria", { name })}
                        >
                          {t("account.security.passkeys.remove")}
                        </Button>
                      </Form>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {loaderData.canAddPasskey ? (
            <AddPasskeyButton t={t} defaultName={t("account.security.passkeys.defaultName")} />
          ) : (
            <p className="text-muted">
              {t("account.security.passkeys.needsReauth")}{" "}
              <Link
                to={links.confirmIdentity(links.security())}
                className="font-semibold text-ink underline underline-offset-4"
              >
                {t("account.editInfo.reauthLink")}
              </Link>
            </p>
          )}
        </AccountSection>

        <AccountSection
          title={t("account.security.cards.title")}
          lead={t("account.security.cards.lead")}
          id="card-devices"
        >
          {form.errors("cardDevices") ? (
            <Alert tone="error" className="mb-4">
              {form.errors("cardDevices")?.[0]}
            </Alert>
          ) : null}
          {loaderData.cardDevices.length === 0 ? (
            <p className="text-muted">{t("account.security.cards.empty")}</p>
          ) : (
            <ul className="divide-y divide-line" data-testid="card-device-list">
              {loaderData.cardDevices.map((d) => {
                const name = deviceName(d);
                return (
                  <li key={d.id} className="flex flex-wrap items-start justify-between gap-3 py-4 first:pt-0 last:pb-0">
                    <div className="min-w-0 space-y-0.5">
                      <p className="font-medium">{name}</p>
                      <p className="text-sm text-muted">{t("account.security.cards.added", { time: d.added })}</p>
                      <p className="text-sm text-muted">
                        {d.lastUsed
                          ? t("account.security.cards.lastUsed", { time: d.lastUsed })
                          : t("account.security.cards.neverUsed")}
                      </p>
                    </div>
                    <Form method="post">
                      <input type="hidden" name="id" value={d.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value="remove-card-device"
                        variant="secondary"
                        size="sm"
                        aria-label={t("account.security.cards.removeAria", { device: name })}
                      >
                        {t("account.security.cards.remove")}
                      </Button>
                    </Form>
                  </li>
                );
              })}
            </ul>
          )}
        </AccountSection>

        {/* /member-center/linked-logins is built by the LINE branch (same member-center prefix). */}
        <p>
          <a href="/member-center/linked-logins" className={buttonVariants({ variant: "ghost" })}>
            {t("account.security.linkedLogins")}
          </a>
        </p>
      </div>
    </Page>
  );
}
