import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { NativeSelectField } from "~/components/ui/native-select";
import { CSV_TARGETS, type CsvTarget } from "~/domain/imports/record";
import { useLocale } from "~/lib/i18n";
import { formatIsoDate } from "~/lib/time";
import type { useFormState } from "~/lib/use-form-state";
import { ConsoleTable } from "../console-list";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";
import { ProblemList, rowIdColumns } from "./run-report";
import type { PreviewRow } from "./types";
import { testId } from "./types";
import { ImportOptionFields } from "./upload-forms";

type FormState = ReturnType<typeof useFormState>;

/** The form field of the i-th CSV column (a header may hold any character; its index does not). */
export const mappingField = (index: number) => `col${index}`;

/**
 * The mapping step of a CSV run: a select per header (what the column holds, each target at most once; the
 * guess preselected), the options, and two submits: show the preview again with this mapping, or dry run.
 */
export function MappingForm({
  form,
  headers,
  mapping,
  options,
}: {
  form: FormState;
  headers: readonly string[];
  mapping: Record<string, CsvTarget | "ignore">;
  options: { welcome: boolean; evaluateTiers: boolean };
}) {
  const t = useConsoleT();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  return (
    <Form method="post" className="mt-6 space-y-6" data-testid="import-mapping-form">
      <DetailSection as="fieldset" title={t("console.import.mapping.title")} lead={t("console.import.mapping.lead")}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {headers.map((header, i) => (
            <NativeSelectField
              key={header}
              label={t("console.import.mapping.column", { header })}
              errors={form.errors(mappingField(i))}
              selectProps={{
                name: mappingField(i),
                defaultValue: form.value(mappingField(i), mapping[header] ?? "ignore"),
                ...testId("import-mapping-select"),
                ...({ "data-header": header } as Record<string, string>),
              }}
            >
              <option value="ignore">{t("console.import.target.ignore")}</option>
              {CSV_TARGETS.map((target) => (
                <option key={target} value={target}>
                  {t(`console.import.target.${target}`)}
                </option>
              ))}
            </NativeSelectField>
          ))}
        </div>
      </DetailSection>
      <ImportOptionFields form={form} defaults={options} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value="check" disabled={submitting} data-testid="import-check">
          {t("console.import.mapping.submit")}
        </Button>
        <Button
          type="submit"
          name="intent"
          value="preview"
          variant="secondary"
          disabled={submitting}
          data-testid="import-preview-refresh"
        >
          {t("console.import.remap")}
        </Button>
      </div>
    </Form>
  );
}

/** The first rows as they will be stored, with the current mapping. */
export function PreviewTable({ rows }: { rows: readonly PreviewRow[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <DetailSection
      id="import-preview"
      title={t("console.import.preview.title", { count: rows.length })}
      lead={t("console.import.preview.lead")}
      className="mt-6"
      testId="import-preview"
    >
      {rows.length === 0 ? (
        <p className="text-muted">{t("console.import.preview.empty")}</p>
      ) : (
        <ConsoleTable
          labelledBy="import-preview"
          rows={rows}
          rowKey={(r) => String(r.line)}
          rowTestId="import-preview-row"
          minWidth="60rem"
          columns={[
            ...rowIdColumns<PreviewRow>(t, "break-all"),
            { key: "name", header: t("console.import.col.name"), cell: (r) => r.name ?? "—" },
            {
              key: "email",
              header: t("console.import.col.email"),
              className: "break-all",
              cell: (r) => r.email ?? "—",
            },
            {
              key: "tier",
              header: t("console.import.col.tier"),
              cell: (r) =>
                r.tier === "basic" || r.tier === "silver" || r.tier === "gold"
                  ? t(`console.import.tier.${r.tier}`)
                  : "—",
            },
            {
              key: "points",
              header: t("console.import.col.points"),
              align: "right",
              className: "tabular-nums",
              cell: (r) => (r.points === null ? "—" : r.points.toLocaleString("en-US")),
            },
            {
              key: "expiry",
              header: t("console.import.col.expiry"),
              className: "tabular-nums",
              cell: (r) =>
                r.pointsLastDay ? formatIsoDate(r.pointsLastDay, locale) : t("console.import.expiry.default"),
            },
            {
              key: "problems",
              header: t("console.import.col.problems"),
              cell: (r) => <ProblemList problems={r.problems} />,
            },
          ]}
        />
      )}
    </DetailSection>
  );
}
