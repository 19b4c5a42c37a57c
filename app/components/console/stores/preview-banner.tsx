import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { useConsoleT } from "../use-console-t";

/** The bar above a store's preview (ADR 027): it is a preview; back to the editor, or publish what is shown. */
export function PreviewBanner({ id, version, canPublish }: { id: string; version: number; canPublish: boolean }) {
  const t = useConsoleT();
  return (
    <div
      className="sticky top-0 z-20 border-b border-brand-700/30 bg-brand-50 px-4 py-3 sm:px-6"
      data-testid="preview-banner"
      data-sticky-top="preview-banner"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-ink" role="status">
          {t("console.stores.preview.banner")}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Link to={`/admin/stores/${id}`} className="text-sm underline underline-offset-4">
            {t("console.stores.preview.back")}
          </Link>
          {canPublish ? (
            <Form method="post" action={`/admin/stores/${id}`}>
              <input type="hidden" name="intent" value="publish" />
              <input type="hidden" name="version" value={version} />
              <Button type="submit" size="sm">
                {t("console.stores.publish")}
              </Button>
            </Form>
          ) : null}
        </div>
      </div>
    </div>
  );
}
