import type { FormEvent } from "react";
import { useRouteLoaderData } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { cn } from "~/lib/cn";
import { useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import type { LiffFeatures } from "./liff-features.client";

/**
 * What the LIFF chunk (app/adapters/liff.client.ts) offers the page once it has initialised inside LINE: LIFF's
 * login for the LINE buttons, and LINE's features (share, home-screen shortcut, send to a chat), whose chunk
 * loads on the first call (the slots in line-app-slots.tsx).
 */
export type LiffBridge = {
  login(method: "signin" | "signup" | "link"): void;
  features(): Promise<LiffFeatures>;
};
declare global {
  interface Window {
    __hanLiff?: LiffBridge;
  }
}

/** Whether LINE login is on (root loader): production without a channel hides the buttons. */
export function useLineEnabled(): boolean {
  const root = useRouteLoaderData("root") as { line?: { enabled: boolean } } | undefined;
  return Boolean(root?.line?.enabled);
}

/**
 * A LINE button: a plain POST to /auth/line/start (works without JavaScript, a full page load so
 * the redirect to LINE is a real navigation). Inside the LINE app, once LIFF is ready, LIFF's own
 * login takes over and the page posts the ID token instead.
 */
export function LineButton({
  method,
  label,
  redirectTo,
  className,
}: {
  method: "signin" | "signup" | "link";
  label: string;
  redirectTo?: string;
  className?: string;
}) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (window.__hanLiff) {
      event.preventDefault();
      window.__hanLiff.login(method);
    }
  };
  return (
    <form method="post" action={links.lineStart()} onSubmit={onSubmit} className={className}>
      <input type="hidden" name="method" value={method} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <button type="submit" className={cn(buttonVariants({ variant: "secondary", size: "lg", block: true }))}>
        <LineMark />
        {label}
      </button>
    </form>
  );
}

function LineMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6 shrink-0">
      <rect width="24" height="24" rx="6" fill="#06C755" />
      <path
        fill="#fff"
        d="M12 5.2c-4.1 0-7.4 2.7-7.4 6 0 3 2.6 5.5 6.2 5.9.2.1.6.2.7.4.1.2.1.5 0 .7l-.1.6c0 .2-.2.7.6.4.8-.3 4.3-2.5 5.8-4.3 1.1-1.2 1.6-2.4 1.6-3.8 0-3.3-3.3-5.9-7.4-5.9z"
      />
    </svg>
  );
}

/**
 * The thin "or" rule above the LINE buttons (here rather than in ui/: every page that shows it
 * loads this module anyway, and a chunk of its own would cost more than its bytes).
 */
export function OrDivider() {
  const t = useT();
  return (
    <p className="flex items-center gap-3 text-sm text-muted" aria-hidden="true">
      <span className="h-px flex-1 bg-line" />
      {t("line.or")}
      <span className="h-px flex-1 bg-line" />
    </p>
  );
}
