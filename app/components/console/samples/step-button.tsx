import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import type { SampleStep } from "~/domain/samples/samples";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/** What staff do next with a sample in each status (ADR 046); none once returned or cancelled. */
const STEP_OF: Partial<Record<string, SampleStep>> = {
  requested: "ready",
  ready: "hand_out",
  handed_out: "return",
};

/** The row's next step as one button (its form posts the step and the sample's id). */
export function StepButton({
  row,
  busy,
}: {
  row: { id: string; status: string; material: string; memberName: string };
  busy: boolean;
}) {
  const t = useConsoleT();
  const step = STEP_OF[row.status];
  if (!step) return null;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={step} />
      <input type="hidden" name="id" value={row.id} />
      <Button type="submit" size="sm" variant={step === "hand_out" ? "primary" : "secondary"} disabled={busy}>
        {t(`console.samples.step.${step}` as MessageKey)}
        <span className="sr-only">
          {" "}
          {row.material} · {row.memberName}
        </span>
      </Button>
    </Form>
  );
}
