import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";

/** What a check-in says on the page it was made on (the card scan's too): the booking's reference. */
export function CheckedInNotice({ reference, already }: { reference: string; already: boolean }) {
  const t = useConsoleT();
  return (
    <div className="mt-5" data-testid="checked-in">
      <Alert tone="success">
        {t(already ? "console.visits.checkedInAlready" : "console.visits.checkedIn", { reference })}
      </Alert>
    </div>
  );
}
