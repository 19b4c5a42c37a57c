import { useId, useState } from "react";
import { Button } from "~/components/ui/button";

/** A link to share, shown in full (selectable) with a button that copies it; the result is announced politely. */
export function CopyLink({ url, label, copy, copied }: { url: string; label: string; copy: string; copied: string }) {
  const id = useId();
  const [done, setDone] = useState(false);
  return (
    <div className="mt-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          value={url}
          className="min-w-0 flex-1 rounded-xl border border-line bg-white px-3 py-2 text-base"
          data-testid="referral-link"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setDone(true));
          }}
        >
          {copy}
        </Button>
      </div>
      <p className="mt-1 text-sm text-muted" role="status">
        {done ? copied : ""}
      </p>
    </div>
  );
}
