import { Form } from "react-router";
import { Code39Barcode } from "~/components/einvoice/code39-barcode";
import type { TillEinvoice } from "~/domain/einvoice/einvoice.server";
import { useConsoleT } from "../use-console-t";

/**
 * The member's e-invoice carrier and 統編 at the counter (ADR 041): a button that reads them (audited), then the
 * carrier as a Code 39 barcode the till's scanner reads off the tablet, its text, and the 統編 with the company.
 */
export function EinvoicePanel({ shown, pending }: { shown: TillEinvoice | null; pending: boolean }) {
  const t = useConsoleT();
  return (
    <section
      aria-labelledby="einvoice-title"
      className="space-y-3 rounded-2xl border border-line bg-white px-4 py-4"
      data-testid="einvoice-panel"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="einvoice-title" className="font-medium">
          {t("console.counter.einvoice.title")}
        </h2>
        {shown ? (
          <p className="text-sm text-muted">{t("console.counter.member.revealed")}</p>
        ) : (
          <Form method="post" className="ml-auto">
            <button
              type="submit"
              name="intent"
              value="einvoice"
              disabled={pending}
              className="min-h-11 rounded-full border border-line px-4 text-sm hover:bg-sand"
            >
              {t("console.counter.einvoice.show")}
            </button>
          </Form>
        )}
      </div>
      {shown ? (
        <EinvoiceShown shown={shown} />
      ) : (
        <p className="text-sm text-muted">{t("console.counter.einvoice.audited")}</p>
      )}
    </section>
  );
}

function EinvoiceShown({ shown }: { shown: TillEinvoice }) {
  const t = useConsoleT();
  if (!shown.sharing) {
    return (
      <p className="text-base" data-testid="einvoice-off">
        {t("console.counter.einvoice.sharingOff")}
      </p>
    );
  }
  if (!shown.carrier && !shown.taxIdNumber) {
    return (
      <p className="text-base" data-testid="einvoice-none">
        {t("console.counter.einvoice.none")}
      </p>
    );
  }
  return (
    <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
      {shown.carrier ? (
        <div className="sm:col-span-2">
          <dt className="text-sm text-muted">{t("console.counter.einvoice.carrier")}</dt>
          <dd className="mt-2 space-y-2">
            {/* The bars on white edge to edge of the quiet zones: the panel's padding is not part of the code. */}
            <Code39Barcode
              text={shown.carrier}
              label={t("console.counter.einvoice.barcode", { carrier: shown.carrier })}
              testId="einvoice-barcode"
            />
            <p className="font-mono text-2xl tracking-[0.2em]" data-testid="einvoice-carrier">
              {shown.carrier}
            </p>
            <p className="text-sm text-muted">{t("console.counter.einvoice.scanHint")}</p>
          </dd>
        </div>
      ) : null}
      {shown.taxIdNumber ? (
        <div>
          <dt className="text-sm text-muted">{t("console.counter.einvoice.taxId")}</dt>
          <dd className="font-mono text-xl tracking-wider" data-testid="einvoice-tax-id">
            {shown.taxIdNumber}
          </dd>
        </div>
      ) : null}
      {shown.companyName ? (
        <div>
          <dt className="text-sm text-muted">{t("console.counter.einvoice.company")}</dt>
          <dd className="text-lg" data-testid="einvoice-company">
            {shown.companyName}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
