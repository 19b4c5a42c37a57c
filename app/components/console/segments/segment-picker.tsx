import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { NativeSelectField } from "~/components/ui/native-select";
import { useConsoleT } from "../use-console-t";

/**
 * A new campaign's "use a saved segment" (ADR 056): a GET form to the composer with `?segment=<id>`, whose loader
 * fills the audience with the segment's filters (the admin may still change them; the campaign keeps its own copy).
 */
export function SegmentPicker({
  segments,
  selected,
}: {
  segments: { id: string; name: string }[];
  selected: string | null;
}) {
  const t = useConsoleT();
  if (segments.length === 0) return null;
  return (
    <Form
      method="get"
      className="mt-6 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-5"
      data-testid="segment-picker"
    >
      <div className="min-w-[16rem] flex-1">
        <NativeSelectField
          label={t("console.segments.picker.label")}
          description={t("console.segments.picker.hint")}
          selectProps={{ name: "segment", defaultValue: selected ?? "" }}
        >
          <option value="">{t("console.segments.picker.none")}</option>
          {segments.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </NativeSelectField>
      </div>
      <Button type="submit" variant="secondary">
        {t("console.segments.picker.apply")}
      </Button>
    </Form>
  );
}
