import { isRefusal } from "~/domain/refusals";
import { storeFormSchema, withLists } from "~/domain/stores/editor";
import { isoDate } from "~/domain/stores/hours";
import { formFailure, parseForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import type { serverT } from "~/lib/i18n.server";
import { taipeiDate } from "~/lib/time";

/** What the console's store pages share on the server: the editor form, read and answered. */

type T = ReturnType<typeof serverT>;

/**
 * The editor form (ADR 008) → the store's content, or the 400 answer: every field's message, the values as typed
 * (the ticked services as one value), the line above the form. An exception before today (Taipei) is refused.
 */
export function parseStoreForm(form: FormData, t: T, now: Date, options: { requireId?: boolean } = {}) {
  const parsed = parseForm(storeFormSchema(t, isoDate(taipeiDate(now)), options), withLists(form));
  if (parsed.ok) return parsed;
  return { ok: false as const, answer: formFailure({ ...parsed.failure, formError: t("console.stores.error.fix") }) };
}

/** A store the editor cannot find (or, refused for the actor, may not name) is the page's 404. */
export function notFoundIfRefused(request: Request) {
  return (error: unknown): never => {
    if (isRefusal(error, "stores")) notFound(request);
    throw error;
  };
}
