/** The notice after a check-in (`?checkedIn=<reference>`, `&already=1` when it was checked in before). */
export function checkedInNotice(params: URLSearchParams): { reference: string; already: boolean } | null {
  const reference = params.get("checkedIn") ?? "";
  if (!/^[A-Z0-9]{4,12}$/.test(reference)) return null;
  return { reference, already: params.get("already") === "1" };
}

/** Where a check-in leads: the page it was made on, saying so. */
export function checkedInHref(path: string, done: { reference: string; already: boolean }): string {
  return `${path}?checkedIn=${encodeURIComponent(done.reference)}${done.already ? "&already=1" : ""}`;
}
