import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { links } from "~/lib/links";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/** The notice after a change, by the editor's `?done=`. */
const NOTICES = {
  created: "console.stores.created",
  saved: "console.stores.saved",
  published: "console.stores.publishedDone",
  unpublished: "console.stores.unpublishedDone",
} as const;

/** The published / not published chip (the list's and the editor's wording). */
export function PublishedChip({ published, label, testId }: { published: boolean; label: string; testId?: string }) {
  return (
    <span
      className={cn(
        "rounded-full px-2.5 py-0.5 text-xs font-medium",
        published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
      )}
      data-testid={testId}
    >
      {label}
    </span>
  );
}

/**
 * A store's publishing (ADR 027): published or not, the pending draft and who saved it, preview, publish (one
 * action), unpublish (admins) and the public page; above them the page's notices. Below the form, the published
 * versions.
 */
export function StoreStatusPanel({
  id,
  published,
  version,
  pending,
  canUnpublish,
  done,
}: {
  id: string;
  published: boolean;
  version: number;
  pending: { by: string; at: string | null } | null;
  canUnpublish: boolean;
  /** The change just made (`?done=`), for its notice. */
  done: string | null;
}) {
  const t = useConsoleT();
  const form = useFormState();
  const notice = done && done in NOTICES ? NOTICES[done as keyof typeof NOTICES] : null;
  const locale = useLocale();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const publishable = Boolean(pending) || !published;
  const action = (intent: "publish" | "unpublish", label: string, extra: Parameters<typeof Button>[0]) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
      <Button type="submit" pending={submitting === intent} {...extra}>
        {label}
      </Button>
    </Form>
  );
  return (
    <section
      aria-label={t("console.stores.col.status")}
      className="mt-6 space-y-3 rounded-2xl border border-line bg-white p-5"
      data-testid="store-status"
    >
      <div aria-live="polite" className="space-y-3">
        {notice && !form.state ? <Alert tone="success">{t(notice)}</Alert> : null}
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      </div>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <PublishedChip
          published={published}
          label={t(published ? "console.stores.state.published" : "console.stores.state.unpublished")}
          testId="store-published"
        />
        <span data-testid="store-draft">
          {pending
            ? t("console.stores.draft.pending", {
                name: pending.by,
                time: pending.at ? formatTaipei(pending.at, locale, "dateTime") : "",
              })
            : t("console.stores.draft.none")}
        </span>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Link
          to={`/admin/stores/${id}/preview`}
          className={buttonVariants({ variant: "secondary" })}
          data-testid="store-preview"
        >
          {t("console.stores.preview")}
        </Link>
        {publishable ? action("publish", t("console.stores.publish"), { "aria-describedby": "publish-hint" }) : null}
        {published && canUnpublish ? action("unpublish", t("console.stores.unpublish"), { variant: "ghost" }) : null}
        {published ? (
          <a href={links.storeDetail(id)} className="text-sm underline underline-offset-4">
            {t("console.stores.viewPublic")}
          </a>
        ) : null}
      </div>
      {publishable ? (
        <p id="publish-hint" className="text-xs text-muted">
          {t("console.stores.publishHint")}
        </p>
      ) : null}
    </section>
  );
}

/** The published versions of a store, newest first. */
export function StoreHistory({ revisions }: { revisions: { revision: number; at: string; by: string }[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <DetailSection id="store-history" title={t("console.stores.history.title")} className="mt-6">
      {revisions.length === 0 ? (
        <p className="text-sm text-muted">{t("console.stores.history.none")}</p>
      ) : (
        <ol className="divide-y divide-line text-sm" data-testid="store-history">
          {revisions.map((r) => (
            <li key={r.revision} className="flex flex-wrap justify-between gap-2 py-2">
              <span className="font-medium">{t("console.stores.history.row", { n: r.revision })}</span>
              <span className="text-muted tabular-nums">
                {formatTaipei(r.at, locale, "dateTime")} · {r.by}
              </span>
            </li>
          ))}
        </ol>
      )}
    </DetailSection>
  );
}
