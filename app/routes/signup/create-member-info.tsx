import { isUniqueViolation } from "@platform/db/errors";
import { Form, redirect, useNavigation } from "react-router";
import { requestOrigin } from "~/adapters/code-step.server";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { ownCodesCookie, referralCookie } from "~/adapters/referral-cookie.server";
import { ProfileFields } from "~/components/auth/profile-fields";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { checkEmailAvailable, requestVerification } from "~/domain/auth/verification.server";
import { hasLineLogin } from "~/domain/line/line.server";
import { grantWelcomePoints } from "~/domain/loyalty/points.server";
import { recordOccasion } from "~/domain/member-messages/occasions.server";
import { addressOptions, findDistrict } from "~/domain/members/address";
import { createMember } from "~/domain/members/members.server";
import { profileSchema } from "~/domain/members/profile.server";
import { fieldFailure, formFailure, parseForm, rateLimitedFailure, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/create-member-info";
import { LinePhoneStep } from "./line-phone-step";
import { linePhoneAction, linePhoneStepData } from "./line-phone-step.server";
import { requireSignupStep } from "./signup-flow.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupInfo.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await requireSignupStep(context, 3);
  if (session.phoneNumber) return { linePhone: null, address: addressOptions(null) };
  // A LINE sign-up: verify a phone number first (same page, before the profile).
  return { linePhone: await linePhoneStepData(context, request), address: addressOptions(null) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireSignupStep(context, 3);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  if (!session.phoneNumber) return linePhoneAction(context, request, form, session.userId);
  const parsed = parseForm(profileSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const profile = parsed.data;
  if (profile.email) {
    const available = await checkEmailAvailable(app, { userId: session.userId, email: profile.email, ip: app.ip });
    if (!available.ok) {
      return available.reason === "rate_limited"
        ? rateLimitedFailure(form, "email", available.retryAfterSeconds, t)
        : fieldFailure(form, "email", t("auth.email.taken"), 409);
    }
  }
  if (!session.phoneNumber) return fieldFailure(form, "form", t("notice.signupRestart"));
  // The referral link the visitor came through, whichever way they signed up (issue 38, ADR 053).
  const referred = await referralCookie.read(context, request);
  const created = await createMember(app.db, {
    userId: session.userId,
    phoneNumber: session.phoneNumber,
    signupMethod: (await hasLineLogin(app.db, session.userId)) ? "line" : "phone",
    ip: app.ip,
    locale: getLocale(request),
    referral: referred ? { code: referred.code, ownCodes: (await ownCodesCookie.read(context, request)) ?? [] } : null,
    profile: {
      ...profile,
      postalCode:
        profile.city && profile.district ? findDistrict(profile.city, profile.district)?.postalCode : undefined,
      marketingSms: profile.marketingSms === "on",
      marketingEmail: profile.marketingEmail === "on",
      marketingLine: profile.marketingLine === "on",
    },
  }).catch((error: unknown) => {
    // A double-submitted form: the first submission created the member.
    if (isUniqueViolation(error)) return null;
    throw error;
  });
  if (!created) return redirect(links["member-center"]());
  // Welcome points when the rules grant them (idempotent: keyed by member), then the welcome message (issue 16).
  const welcome = await grantWelcomePoints(app.db, created.id);
  await recordOccasion(app.db, {
    memberId: created.id,
    occasion: "welcome",
    kind: "welcome",
    data: { points: welcome?.amount ?? 0, memberNumber: created.memberNumber },
  });
  if (profile.email) {
    await requestVerification(authDeps(context), {
      flow: "email",
      email: profile.email,
      ...requestOrigin(context, request),
      memberUserId: session.userId,
    });
    return redirectWithToast(
      toastSettings(context),
      links.verifyEmail(),
      { type: "success", message: "notice.welcome" },
      referred ? { headers: { "Set-Cookie": await referralCookie.clear(context) } } : undefined,
    );
  }
  return redirectWithToast(
    toastSettings(context),
    links["member-center"](),
    { type: "success", message: "notice.welcome" },
    referred ? { headers: { "Set-Cookie": await referralCookie.clear(context) } } : undefined,
  );
}

export default function SignupCreateMemberInfoPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  if (loaderData.linePhone) return <LinePhoneStep data={loaderData.linePhone} />;
  return (
    <Page title={t("page.signupInfo.title")} width="narrow">
      <SignupSteps current={3} />
      <Form method="post" className="space-y-6" noValidate>
        <ProfileFields form={form} address={loaderData.address} />
        <Button type="submit" block size="lg" pending={pending}>
          {t("auth.finish")}
        </Button>
      </Form>
    </Page>
  );
}
