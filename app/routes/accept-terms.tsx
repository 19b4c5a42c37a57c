import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { getMemberSession, loginRedirect } from "~/adapters/current-member.server";
import { termsReturnPath } from "~/adapters/terms-gate.server";
import { ConsentField } from "~/components/auth/consent-field";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { acceptTerms, needsTermsAcceptance } from "~/domain/members/terms-acceptance.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { type Translate, useT } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/accept-terms";

/**
 * /accept-terms (issue 35, ADR 038 "Consents"): a member moved in from another system accepts the terms and the
 * privacy notice (個資法 §8) before the member center, with the same consent control as sign-up step 1. The
 * member-center gate (terms-gate.server.ts) sends them here with `redirectTo`; accepting continues there (a
 * same-site path only), declining logs out. Anyone who has nothing to accept is sent on.
 */
export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.acceptTerms.title");

const acceptSchema = (t: Translate) =>
  z.object({
    consent: z.literal("on", { error: t("auth.consent.required") }),
    redirectTo: z.string().max(2048).optional(),
  });

/** The logged-in member with a member record, or the login page (which comes back here). */
function requireMemberHere(context: Route.LoaderArgs["context"], request: Request) {
  const session = getMemberSession(context);
  if (!session?.member) throw loginRedirect(request);
  return { memberId: session.member.id, userId: session.userId };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const who = requireMemberHere(context, request);
  const redirectTo = termsReturnPath(new URL(request.url).searchParams.get("redirectTo"));
  if (!(await needsTermsAcceptance(getApp(context).db, who))) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const who = requireMemberHere(context, request);
  const form = await readForm(request);
  const parsed = parseForm(acceptSchema(serverT(request)), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const app = getApp(context);
  await acceptTerms(app.db, who, app.ip);
  return redirect(termsReturnPath(parsed.data.redirectTo));
}

export default function AcceptTermsPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction !== links.logout();
  return (
    <Page title={t("page.acceptTerms.title")} lead={t("auth.acceptTerms.lead")} width="narrow">
      <Form method="post" className="space-y-6" noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <ConsentField checked={form.checked("consent")} errors={form.errors("consent")} />
        <Button type="submit" block size="lg" pending={pending}>
          {t("auth.acceptTerms.submit")}
        </Button>
      </Form>
      <Form method="post" action={links.logout()} className="mt-8 space-y-3 text-center">
        <p className="text-sm text-muted">{t("auth.acceptTerms.declineHint")}</p>
        <Button type="submit" variant="secondary">
          {t("auth.acceptTerms.decline")}
        </Button>
      </Form>
    </Page>
  );
}
