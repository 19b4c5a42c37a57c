import { MaterialDetailView } from "~/components/catalog/material-detail-view";
import type { MaterialDetailView as PreviewData } from "~/domain/materials/detail-view";
import { type CatalogRef, useT } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/** The public page's own component, fed with the form as typed (ADR 033): nothing is saved. */
export function MaterialPreview({ view, messages }: { view: PreviewData; messages?: CatalogRef }) {
  const t = useConsoleT();
  const publicT = useT(messages);
  return (
    <section aria-labelledby="preview-heading" className="mt-10" data-testid="material-preview">
      <h2 id="preview-heading" className="font-serif text-2xl font-semibold">
        {t("console.materials.preview.title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("console.materials.preview.lead")}</p>
      <div className="mt-4 overflow-hidden rounded-3xl border-2 border-dashed border-line bg-paper">
        <MaterialDetailView view={view} t={publicT} />
      </div>
    </section>
  );
}
