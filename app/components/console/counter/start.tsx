import { useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Link } from "~/components/ui/link";
import { useFormState } from "~/lib/use-form-state";
import { useConsoleT } from "../use-console-t";
import { FindForm, ScanOrFind } from "./forms";
import { panelClass } from "./ui";

/** The counter's start (ADR 022): find the member by their card (the camera) or as typed; the other tasks. */
export function MemberFinder() {
  const t = useConsoleT();
  const form = useFormState();
  const navigation = useNavigation();
  return (
    <section aria-labelledby="find-title" className={panelClass()}>
      <h2 id="find-title" className="text-lg font-semibold">
        {t("console.counter.find.title")}
      </h2>
      {form.formError ? (
        <Alert tone="error" className="mt-4">
          {form.formError}
        </Alert>
      ) : null}
      <div className="mt-4">
        <ScanOrFind
          scan={{
            label: t("console.counter.scan.open"),
            testId: "member-scan",
            fields: (cardToken) => ({ cardToken }),
          }}
        >
          <FindForm
            method="post"
            pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
            submit={{ label: t("console.counter.find.submit") }}
            field={{
              kind: "text",
              name: "query",
              label: t("console.counter.find.query"),
              description: t("console.counter.find.queryHint"),
              errors: form.errors("query"),
              input: { inputMode: "text", defaultValue: form.value("query") },
            }}
          />
        </ScanOrFind>
      </div>
    </section>
  );
}

/** The tasks that do not start from a member (refund, coupon), as large links, those this staff member may do. */
export function TaskLinks({ can }: { can: { refund: boolean; coupon: boolean } }) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="tasks-title" className="space-y-3">
      <h2 id="tasks-title" className="sr-only">
        {t("console.counter.actions")}
      </h2>
      {(["refund", "coupon"] as const)
        .filter((task) => can[task])
        .map((task) => (
          <Link
            key={task}
            to={`/admin/counter/${task}`}
            className="flex min-h-16 flex-col justify-center rounded-3xl border border-line bg-white px-5 py-4 hover:border-brand-700/40 hover:bg-sand/40"
          >
            <span className="text-lg font-semibold">{t(`console.counter.${task}.link`)}</span>
            <span className="text-sm text-muted">{t(`console.counter.${task}.linkHint`)}</span>
          </Link>
        ))}
    </section>
  );
}
