import { useState } from "react";
import { Button } from "~/components/ui/button";
import { useConsoleT } from "./use-console-t";

/**
 * A value shown once for the admin to copy (an invitation link, a new API key): read-only, selected on focus,
 * with a copy button that says when it has copied.
 */
export function CopyField({
  id,
  label,
  value,
  copyLabel,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  testId: string;
}) {
  const t = useConsoleT();
  const [copied, setCopied] = useState(false);
  return (
    <>
      <label className="block text-sm font-medium" htmlFor={id}>
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="min-h-11 min-w-0 flex-1 rounded-xl border border-line bg-sand/40 px-3 font-mono text-sm"
          data-testid={testId}
        />
        <Button
          type="button"
          variant="secondary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? t("console.staff.invite.copied") : copyLabel}
        </Button>
      </div>
    </>
  );
}
