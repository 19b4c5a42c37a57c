/**
 * The welcome variant of the forgot-password flow (issue 35, ADR 038): members moved in from another system
 * without a usable password set their first one here, through the same steps and the same answers (no account
 * enumeration), only worded as a welcome. `?welcome=1` travels from step to step in the address.
 */
export const WELCOME_PARAM = "welcome";

export function isWelcome(search: string | URL): boolean {
  const params = typeof search === "string" ? new URLSearchParams(search) : search.searchParams;
  return params.get(WELCOME_PARAM) === "1";
}

/** `path` with the welcome flag when the flow is the welcome variant. */
export function withWelcome(path: string, welcome: boolean): string {
  if (!welcome) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${WELCOME_PARAM}=1`;
}
