import type { LegalDocument } from "~/content/legal";
import { Page } from "./page";

export function LegalPage({ title, document }: { title: string; document: LegalDocument }) {
  return (
    <Page title={title} lead={document.intro}>
      <div className="max-w-3xl space-y-8">
        <p className="text-sm text-muted">{document.updated}</p>
        {document.sections.map((section) => (
          <section key={section.heading}>
            <h2 className="text-xl font-semibold">{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p} className="mt-2 text-base leading-8 text-ink">
                {p}
              </p>
            ))}
          </section>
        ))}
      </div>
    </Page>
  );
}
