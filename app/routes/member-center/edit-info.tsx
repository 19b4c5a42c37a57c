import { Form, Link, useNavigation } from "react-router";
import { AccountNav, AccountSection } from "~/components/account/account-nav";
import { ProfileFields } from "~/components/auth/profile-fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { isRecentLogin } from "~/domain/auth/identity.server";
import { addressOptions } from "~/domain/members/address";
import { clearPendingEmail, requestEmailChange } from "~/domain/members/contact-change.server";
import { isEmailTaken } from "~/domain/members/members.server";
import { profileSchema } from "~/domain/members/profile.server";
import { updateMemberProfile } from "~/domain/members/profile-update.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { authDeps, getApp, toastSettings } from "~/lib/context.server";
import { fieldFailure, formFailure, formValues, parseForm, waitText } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { requireMember } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/edit-info";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.editInfo.title");

export function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  return {
    messages: routeMessages(getLocale(request), "account.nav.", "account.editInfo."),
    profile: {
      nameZh: member.nameZh,
      gender: member.gender,
      birthday: member.birthday ?? "",
      email: member.pendingEmail ?? member.email ?? "",
      companyName: member.companyName ?? "",
      taxIdNumber: member.taxIdNumber ?? "",
      einvoiceCarrier: member.einvoiceCarrier ?? "",
      city: member.city ?? "",
      district: member.district ?? "",
      street: member.street ?? "",
      marketing: { sms: member.marketingSms, email: member.marketingEmail, line: member.marketingLine },
    },
    address: addressOptions(member.city),
    phone: formatTaiwanMobile(member.phoneNumber),
    pendingEmail: member.pendingEmail,
  };
}

/**
 * Saves the profile of the session's member (ids in the request are never read). A new e-mail
 * needs a recent login, then waits for its code; the phone changes on its own page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const form = await request.formData();
  const parsed = parseForm(profileSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("account.editInfo.saveFailed") });
  const { email, ...profile } = parsed.data;
  const current = session.member;

  let newEmail: string | null = null;
  if (!email) {
    if (current.email) return fieldFailure(form, "email", t("account.editInfo.emailCannotRemove"));
  } else if (email !== current.email && email !== current.pendingEmail) {
    newEmail = email;
  }
  if (newEmail) {
    if (!(await isRecentLogin(app.db, session.sessionId))) {
      return formFailure(
        {
          errors: { email: [t("account.editInfo.reauthNeeded")] },
          values: formValues(form),
          formError: "reauth",
        },
        403,
      );
    }
    if (await isEmailTaken(app.db, newEmail, session.userId)) {
      return fieldFailure(form, "email", t("auth.email.taken"), 409);
    }
  }

  const saved = await updateMemberProfile(app.db, { current, profile, ip: app.ip });
  // Only a pending (never verified) address can be withdrawn by emptying the field.
  if (!email && current.pendingEmail) {
    await clearPendingEmail(app.db, session.userId);
  }

  if (newEmail) {
    const sent = await requestEmailChange(authDeps(context), {
      userId: session.userId,
      email: newEmail,
      ip: app.ip,
      locale: getLocale(request),
    });
    if (!sent.ok) {
      const message =
        sent.reason === "taken"
          ? t("auth.email.taken")
          : sent.reason === "unchanged"
            ? t("account.editInfo.emailUnchangedNeedsCode")
            : t("form.tooManyRequests", {
                wait: waitText("retryAfterSeconds" in sent ? sent.retryAfterSeconds : 60, t),
              });
      return fieldFailure(form, "email", message, sent.reason === "taken" ? 409 : 429);
    }
    return redirectWithToast(toastSettings(context), links.verifyEmail(), {
      type: "success",
      message: "notice.emailCodeSent",
    });
  }
  return redirectWithToast(toastSettings(context), links.editInfo(), {
    type: "success",
    message: saved.birthdayPointsWithheld ? "notice.profileSavedBirthdayWithheld" : "notice.profileSaved",
  });
}

export default function EditInfoPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const needsReauth = form.formError === "reauth";
  return (
    <Page title={t("page.editInfo.title")} lead={t("account.editInfo.lead")} width="narrow">
      <AccountNav t={t} />
      <div className="space-y-6">
        <AccountSection title={t("account.editInfo.contact")} id="contact">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="text-sm text-muted">{t("account.editInfo.phone")}</p>
              <p className="mt-0.5 text-lg font-medium tabular-nums" data-testid="current-phone">
                {loaderData.phone}
              </p>
            </div>
            <Link to={links.changePhone()} className={buttonVariants({ variant: "secondary", size: "sm" })}>
              {t("account.editInfo.changePhone")}
            </Link>
          </div>
          {loaderData.pendingEmail ? (
            <Alert className="mt-4">
              {t("account.editInfo.emailPending", { email: loaderData.pendingEmail })}{" "}
              <Link to={links.verifyEmail()} className="font-semibold underline underline-offset-4">
                {t("account.editInfo.emailVerify")}
              </Link>
            </Alert>
          ) : null}
          <p className="mt-4 text-sm text-muted">{t("account.editInfo.emailChangeNote")}</p>
        </AccountSection>

        {form.formError ? (
          <Alert tone="error">
            {needsReauth ? (
              <>
                {t("account.editInfo.reauthNeeded")}{" "}
                <Link
                  to={links.confirmIdentity(links.editInfo())}
                  className="font-semibold underline underline-offset-4"
                >
                  {t("account.editInfo.reauthLink")}
                </Link>
              </>
            ) : (
              form.formError
            )}
          </Alert>
        ) : null}
        <Form method="post" className="space-y-6" noValidate>
          <ProfileFields form={form} defaults={loaderData.profile} address={loaderData.address} />
          <Button type="submit" block size="lg" pending={pending}>
            {t("account.editInfo.save")}
          </Button>
        </Form>
      </div>
    </Page>
  );
}
