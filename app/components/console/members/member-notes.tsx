import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import type { ConsoleMemberView } from "~/domain/members/console.server";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { IntentForm } from "./intent-form";

/** Internal notes (only for who may reveal the personal fields), with the link to the member's audit trail. */
export function MemberNotes({ member: m, canAudit }: { member: ConsoleMemberView; canAudit: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  return (
    <DetailSection
      id="notes-title"
      title={t("console.members.notes")}
      className="mt-6"
      action={
        canAudit ? (
          <Link to={`/admin/audit?targetType=member&targetId=${m.id}`} className="text-sm underline underline-offset-4">
            {t("console.members.trail")}
          </Link>
        ) : null
      }
    >
      {m.canReveal ? (
        <IntentForm
          intent="note"
          variant="primary"
          size="sm"
          className="space-y-3"
          label={t("console.members.addNote")}
          fields={
            <Field
              label={t("console.members.note")}
              errors={form.errors("note")}
              inputProps={{ name: "note", maxLength: 1000, defaultValue: form.value("note") }}
            />
          }
        />
      ) : null}
      {m.notes ? (
        <ul className="space-y-2 text-sm" data-testid="member-notes">
          {m.notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-sand/50 p-3">
              <p className="whitespace-pre-wrap">{note.body}</p>
              <p className="mt-1 text-xs text-muted">
                {note.author ?? "—"} · {formatTaipei(note.at, locale, "dateTime")}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted" data-testid="member-notes-hidden">
          {t("console.members.notesHidden")}
        </p>
      )}
    </DetailSection>
  );
}
