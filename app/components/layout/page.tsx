import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/** The standard page frame: a heading, an optional lead paragraph, then the content. */
export function Page({
  title,
  lead,
  eyebrow,
  children,
  width = "wide",
}: {
  title: ReactNode;
  lead?: ReactNode;
  eyebrow?: ReactNode;
  children?: ReactNode;
  width?: "narrow" | "wide";
}) {
  return (
    <div className={cn("mx-auto px-4 py-10 sm:px-6 sm:py-14", width === "narrow" ? "max-w-lg" : "max-w-6xl")}>
      {eyebrow ? <p className="text-sm tracking-[0.2em] text-brand-700">{eyebrow}</p> : null}
      <h1 className="mt-1 font-serif text-3xl font-semibold tracking-wide sm:text-4xl">{title}</h1>
      {lead ? <p className="mt-3 max-w-2xl text-lg text-pretty text-muted">{lead}</p> : null}
      <div className="mt-8">{children}</div>
    </div>
  );
}

/** Says plainly that a page's feature is not open yet (its issue delivers it). */
export function NotYetOpen({ children }: { children: ReactNode }) {
  return (
    <p
      className="rounded-2xl border border-dashed border-line bg-white/60 px-5 py-4 text-muted"
      data-testid="page-frame"
    >
      {children}
    </p>
  );
}
