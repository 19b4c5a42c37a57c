import { Field } from "~/components/ui/field";
import { useConsoleT } from "./use-console-t";

/**
 * The code field of a sensitive form, shown when the server asked for the second factor again (the last
 * code is older than a few minutes). Everything else typed in the form is kept; one submit sends both.
 */
export function StepUpField({
  show,
  errors,
  required = true,
}: {
  show: boolean;
  errors: string[] | null;
  /** False when the form has other buttons the code is not for (the campaign's save beside its send). */
  required?: boolean;
}) {
  const t = useConsoleT();
  if (!show) return null;
  return (
    <div className="rounded-2xl border border-brand-700/30 bg-brand-50/60 p-4" data-testid="step-up">
      <p className="mb-3 text-sm">{t("console.stepUp.lead")}</p>
      <Field
        label={t("console.verify.code")}
        errors={errors}
        inputProps={{
          name: "stepUpCode",
          type: "text",
          inputMode: "numeric",
          autoComplete: "one-time-code",
          required,
          maxLength: 32,
          autoFocus: true,
          className: "max-w-xs tracking-[0.3em]",
        }}
      />
    </div>
  );
}
