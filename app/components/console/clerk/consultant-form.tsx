import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { NativeSelectField } from "~/components/ui/native-select";
import { useConsoleT } from "../use-console-t";

type Person = { userId: string; displayName: string };

/**
 * The member's consultant (專屬顧問, ADR 042): who it is, and for a staff member allowed to bind, a choice among the
 * store's staff (the clerk themselves first, as "me") or none. Used on the counter's summary and the member page.
 */
export function ConsultantForm({
  current,
  choices,
  me,
  canBind,
  result,
}: {
  current: Person | null;
  choices: Person[];
  me: string;
  canBind: boolean;
  result: { saved?: boolean; error?: string } | null | undefined;
}) {
  const t = useConsoleT();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "consultant";
  const name = (p: Person) =>
    p.userId === me ? t("console.clerk.consultant.me", { name: p.displayName }) : p.displayName;
  const options = current && !choices.some((c) => c.userId === current.userId) ? [current, ...choices] : choices;
  return (
    <section aria-labelledby="consultant-title" className="rounded-2xl border border-line bg-white px-4 py-3">
      <h2 id="consultant-title" className="text-sm text-muted">
        {t("console.clerk.consultant.title")}
      </h2>
      <p className="mt-1 text-lg" data-testid="member-consultant">
        {current ? name(current) : t("console.clerk.consultant.none")}
      </p>
      {canBind ? (
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="consultant" />
          <div className="min-w-56 flex-1">
            <NativeSelectField
              label={t("console.clerk.consultant.choose")}
              errors={result?.error ? [result.error] : null}
              selectProps={{ name: "consultant", defaultValue: current?.userId ?? me }}
            >
              {options.map((p) => (
                <option key={p.userId} value={p.userId}>
                  {name(p)}
                </option>
              ))}
              <option value="">{t("console.clerk.consultant.noneOption")}</option>
            </NativeSelectField>
          </div>
          <Button type="submit" variant="secondary" pending={pending}>
            {t("console.clerk.consultant.save")}
          </Button>
        </Form>
      ) : null}
      {result?.saved ? (
        <Alert tone="success" className="mt-3">
          {t("console.clerk.consultant.saved")}
        </Alert>
      ) : null}
    </section>
  );
}
