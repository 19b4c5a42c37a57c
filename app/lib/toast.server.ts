import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import type { MessageKey } from "./i18n";

/**
 * A notice that survives a redirect: it travels in a signed, one-read cookie and the
 * root loader hands it to the page (and clears it).
 */
export const toastSchema = z.object({
  id: z.string(),
  type: z.enum(["success", "error"]),
  /** A catalog key, so the notice is shown in the reader's language. */
  message: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = { type: Toast["type"]; message: MessageKey; values?: Toast["values"] };

const TOAST_KEY = "toast";

type ToastSettings = { secret: string; secure: boolean };
type ToastStorage = ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>>;
const storages = new Map<string, ToastStorage>();

function storage({ secret, secure }: ToastSettings) {
  const key = `${secure}|${secret}`;
  let s = storages.get(key);
  if (!s) {
    s = createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
      // Readable by the page (it holds only a signed message key) so a navigation can tell that a
      // redirect left a toast to show (root shouldRevalidate).
      cookie: { name: "toast", path: "/", httpOnly: false, sameSite: "lax", secure, secrets: [secret], maxAge: 60 },
    });
    storages.set(key, s);
  }
  return s;
}

export async function createToastHeaders(settings: ToastSettings, input: ToastInput): Promise<Headers> {
  const s = storage(settings);
  const session = await s.getSession();
  session.flash(TOAST_KEY, { id: crypto.randomUUID(), ...input } satisfies Toast);
  return new Headers({ "Set-Cookie": await s.commitSession(session) });
}

export async function redirectWithToast(
  settings: ToastSettings,
  url: string,
  input: ToastInput,
  init?: ResponseInit,
): Promise<Response> {
  const headers = new Headers(init?.headers);
  for (const [name, value] of await createToastHeaders(settings, input)) headers.append(name, value);
  return redirect(url, { ...init, headers });
}

/** Reads and clears the pending toast. */
export async function readToast(
  settings: ToastSettings,
  request: Request,
): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const s = storage(settings);
  const session = await s.getSession(request.headers.get("cookie"));
  const raw = session.get(TOAST_KEY);
  if (raw === undefined) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(raw);
  const headers = new Headers({ "Set-Cookie": await s.destroySession(session) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
