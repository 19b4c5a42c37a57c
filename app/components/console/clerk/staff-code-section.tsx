import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { DetailSection } from "../detail-section";
import { useBusy } from "../staff/staff-member";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";

/**
 * The staff code a till sends with a purchase (ADR 042): 4–6 letters or digits, unique; empty removes it. The
 * value as typed after a refused save, else the person's.
 */
export function StaffCodeSection({
  staffCode,
  typed,
  stepUp,
  errors,
}: {
  staffCode: string | null;
  typed: string | null;
  stepUp: boolean;
  errors: (field: string) => string[] | null;
}) {
  const t = useConsoleT();
  const busy = useBusy();
  return (
    <DetailSection id="staff-code-title" title={t("console.clerk.code.title")}>
      <Form method="post" className="space-y-5">
        <input type="hidden" name="intent" value="code" />
        <Field
          label={t("console.clerk.code.label")}
          description={t("console.clerk.code.hint")}
          errors={errors("staffCode")}
          inputProps={{
            name: "staffCode",
            defaultValue: typed ?? staffCode ?? "",
            autoComplete: "off",
            autoCapitalize: "characters",
            spellCheck: false,
            maxLength: 20,
            className: "max-w-40 font-mono uppercase",
          }}
        />
        <StepUpField show={stepUp} errors={errors("stepUpCode")} />
        <Button type="submit" pending={busy("code")}>
          {t("console.clerk.code.save")}
        </Button>
      </Form>
    </DetailSection>
  );
}
