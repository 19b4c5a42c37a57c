import { Button } from "~/components/ui/button";

/** Opens the browser's print dialog (where "Save as PDF" makes a file); not printed itself. */
export function PrintButton({ label }: { label: string }) {
  return (
    <Button type="button" className="print:hidden" onClick={() => window.print()} data-testid="quote-print">
      {label}
    </Button>
  );
}
