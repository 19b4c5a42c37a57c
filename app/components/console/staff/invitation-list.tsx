import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";
import { HiddenForm } from "./post-forms";

export type OpenInvitation = {
  id: string;
  displayName: string;
  contact: string;
  role: "admin" | "manager" | "staff";
  stores: string[] | null;
  invitedBy: string | null;
  expiresAt: string;
};

/** The staff list's open invitations, each with its revoke button. */
export function InvitationList({ invitations }: { invitations: OpenInvitation[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  const navigation = useNavigation();
  return (
    <section className="mt-10" aria-labelledby="invitations-title">
      <h2 id="invitations-title" className="text-xl font-semibold">
        {t("console.staff.invitations")}
      </h2>
      {invitations.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{t("console.staff.invitationsEmpty")}</p>
      ) : (
        <ul className="mt-3 grid gap-3 md:grid-cols-2" data-testid="invitations">
          {invitations.map((i) => (
            <li key={i.id} className="rounded-2xl border border-line bg-white p-4" data-testid="invitation">
              <p className="font-medium">
                {i.displayName}
                <span className="ml-2 rounded-full bg-sand px-2 py-0.5 text-xs">{t(`console.role.${i.role}`)}</span>
              </p>
              <p className="mt-1 text-sm text-muted">{i.contact}</p>
              <p className="mt-1 text-sm">{i.stores ? i.stores.join("、") : t("console.staff.allStores")}</p>
              <p className="mt-2 text-xs text-muted tabular-nums">
                {i.invitedBy ? `${t("console.staff.invitedBy", { name: i.invitedBy })} · ` : ""}
                {t("console.staff.expires", { time: formatTaipei(i.expiresAt, locale, "dateTime") })}
              </p>
              <HiddenForm fields={{ invitationId: i.id }} className="mt-3">
                <Button
                  type="submit"
                  size="sm"
                  variant="secondary"
                  aria-label={t("console.staff.revokeFor", { name: i.displayName })}
                  pending={navigation.state === "submitting" && navigation.formData?.get("invitationId") === i.id}
                >
                  {t("console.staff.revoke")}
                </Button>
              </HiddenForm>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
