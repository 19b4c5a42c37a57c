/** The text-input look, shared by fields and plain inputs (a module of its own: no Radix in page bundles). */
export const inputClass =
  "block min-h-11 w-full rounded-xl border border-line bg-white px-4 text-base text-ink placeholder:text-muted focus:border-brand-700 focus:outline-2 focus:outline-offset-1 focus:outline-brand-700/30 aria-[invalid=true]:border-danger-700 disabled:bg-sand";
