import { useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { ErrorList } from "~/components/ui/field";
import { useConsoleT } from "../use-console-t";

/**
 * The boxes' error as long as no box was ticked since the send it answers, and a function the boxes call when one
 * is ticked. The page reads `shown` for its summary too (the alert above the form goes with the field's error).
 * The errors array is new with each refused send, so a new refusal shows again.
 */
export function useAnsweredErrors(errors: readonly string[] | null) {
  const [answered, setAnswered] = useState<readonly string[] | null>(null);
  return {
    shown: errors?.length && errors !== answered ? errors : null,
    answer: () => setAnswered(errors),
  };
}

/**
 * The counter's walk-in loan (ADR 046): a box per material with samples at this store (one the member has open
 * already is shown, not offered), the scan proof carried in the form, the error beside the boxes. "Tick at least
 * one" goes as soon as a box is ticked (the boxes' aria-invalid and aria-describedby with it, and the page's
 * summary: useAnsweredErrors), not at the next send.
 */
export function LendForm({
  materials,
  scan,
  busy,
  chosen,
  shown,
  onTicked,
}: {
  materials: { id: string; name: string; open: boolean }[];
  scan: string;
  busy: boolean;
  /** The boxes ticked when the form was sent (kept after a refusal). */
  chosen: ReadonlySet<string>;
  /** The boxes' error still standing (useAnsweredErrors' `shown`). */
  shown: readonly string[] | null;
  /** A box was ticked (useAnsweredErrors' `answer`). */
  onTicked: () => void;
}) {
  const t = useConsoleT();
  if (materials.length === 0) return <p className="mt-5 text-muted">{t("console.counter.samples.none")}</p>;
  return (
    <Form method="post" className="mt-5 space-y-5" noValidate>
      <input type="hidden" name="scan" value={scan} />
      <fieldset
        className="space-y-3 rounded-3xl border border-line bg-white p-5"
        data-testid="lend-materials"
        aria-describedby={shown ? "materials-error" : undefined}
      >
        <legend className="px-1 text-lg font-semibold">{t("console.counter.samples.materials")}</legend>
        {materials.map((m) =>
          m.open ? (
            <p key={m.id} className="flex min-h-11 items-center gap-2 text-muted">
              <span className="font-medium text-ink">{m.name}</span>· {t("console.counter.samples.taken")}
            </p>
          ) : (
            <CheckboxField
              key={m.id}
              name="materials"
              value={m.id}
              defaultChecked={chosen.has(m.id)}
              groupError={shown ? "materials-error" : null}
              onCheckedChange={(on) => {
                if (on) onTicked();
              }}
              label={<span className="font-medium">{m.name}</span>}
            />
          ),
        )}
        <ErrorList id="materials-error" errors={shown} />
      </fieldset>
      <Button type="submit" size="lg" disabled={busy} data-testid="lend-submit">
        {t("console.counter.samples.submit")}
      </Button>
    </Form>
  );
}
