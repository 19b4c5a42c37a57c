import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { PrintButton } from "./print-button";

/**
 * The printable page of a quote (member center and console): the brand, the title, the document, and above it a
 * way back and the print button, which paper leaves out. A4 with even margins (`@page`), black on white.
 */
export function PrintFrame({
  brand,
  title,
  back,
  printLabel,
  children,
}: {
  brand: string;
  title: string;
  back: { to: string; label: string };
  printLabel: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-white text-ink print:min-h-0">
      <style>{"@page { size: A4; margin: 16mm; } @media print { html, body { background: #fff; } }"}</style>
      <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 px-4 pt-4 print:hidden">
        <Link
          to={back.to}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
        >
          {back.label}
        </Link>
        <PrintButton label={printLabel} />
      </div>
      <main id="main" className="mx-auto max-w-3xl px-4 py-6 print:max-w-none print:p-0">
        <header className="mb-6 border-b border-line pb-4">
          <p className="text-sm tracking-[0.2em] text-brand-700">{brand}</p>
          <h1 className="mt-1 font-serif text-2xl font-semibold tracking-wide">{title}</h1>
        </header>
        {children}
      </main>
    </div>
  );
}
