/**
 * A run's status as a small badge (import runs, bulk grants): one look, each kind with its own words and tones. The
 * status rides along as `data-status`, so a test reads the state without the words.
 */
export function StatusBadge({
  status,
  label,
  tone,
  testId,
}: {
  status: string;
  label: string;
  /** The colours of this status (background and text). */
  tone: string;
  testId: string;
}) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${tone}`}
      data-testid={testId}
      data-status={status}
    >
      {label}
    </span>
  );
}
