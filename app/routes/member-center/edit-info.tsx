import { Form, useNavigation } from "react-router";
import { contactSendFailure, requestOrigin } from "~/adapters/code-step.server";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { AccountNav, AccountSection } from "~/components/account/account-nav";
import { ProfileFields } from "~/components/auth/profile-fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { isRecentLogin } from "~/domain/auth/identity.server";
import { clearPendingEmail, requestVerification } from "~/domain/auth/verification.server";
import { addressOptions } from "~/domain/members/address";
import { profileSchema } from "~/domain/members/profile.server";
import { updateMemberProfile } from "~/domain/members/profile-update.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { fieldFailure, formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
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
  const form = await readForm(request);
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
    // The code goes out (or "taken" is answered, at the cost of a send) before anything is saved.
    const sent = await requestVerification(authDeps(context), {
      flow: "change-email",
      userId: session.userId,
      email: newEmail,
      ...requestOrigin(context, request),
    });
    if (!sent.ok) {
      return contactSendFailure(form, "email", sent, t, {
        taken: t("auth.email.taken"),
        unchanged: t("account.editInfo.emailUnchangedNeedsCode"),
      });
    }
  }

  const saved = await updateMemberProfile(app.db, { current, profile, ip: app.ip });
  // Only a pending (never verified) address can be withdrawn by emptying the field.
  if (!email && current.pendingEmail) {
    await clearPendingEmail(app.db, session.userId);
  }
  if (newEmail) {
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
        <AccountSection title={t("account.editInfo.contact")} lead={t("account.editInfo.phoneLead")} id="contact">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-lg font-medium tabular-nums">
              <span className="sr-only">{t("account.editInfo.phone")} </span>
              <span data-testid="current-phone">{loaderData.phone}</span>
            </p>
            <Link to={links.changePhone()} className={buttonVariants({ variant: "secondary", size: "sm" })}>
              {t("account.editInfo.changePhone")}
            </Link>
          </div>
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
          <ProfileFields
            form={form}
            defaults={loaderData.profile}
            address={loaderData.address}
            email={{
              description: t("account.editInfo.emailChangeNote"),
              notice: loaderData.pendingEmail ? (
                <Alert>
                  {t("account.editInfo.emailPending", { email: loaderData.pendingEmail })}{" "}
                  <Link to={links.verifyEmail()} className="font-semibold underline underline-offset-4">
                    {t("account.editInfo.emailVerify")}
                  </Link>
                </Alert>
              ) : null,
            }}
          />
          <Button type="submit" block size="lg" pending={pending}>
            {t("account.editInfo.save")}
          </Button>
        </Form>
      </div>
    </Page>
  );
}
