import { useRouteLoaderData } from "react-router";
import { type Messages, useT } from "~/lib/i18n";

/** The translate function of console pages: the shell catalog plus `console.*` (sent by the console route). */
export function useConsoleT() {
  const data = useRouteLoaderData("console") as { messages?: Partial<Messages> } | undefined;
  return useT(data?.messages);
}
