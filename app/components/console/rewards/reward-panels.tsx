import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/** After a version conflict: the reward as saved now by the other person, above the form that keeps what was typed. */
export function RewardLatest({ latest }: { latest: Record<string, string> }) {
  const t = useConsoleT();
  return (
    <dl
      className="grid gap-x-4 gap-y-1 rounded-2xl border border-line bg-sand/40 p-4 text-sm sm:grid-cols-[auto_1fr]"
      data-testid="reward-latest"
    >
      {(["name", "pointsCost", "perMemberLimit", "validFrom", "validUntil"] as const).map((f) => (
        <div key={f} className="contents">
          <dt className="text-muted">{t(`console.programme.reward.${f}`)}</dt>
          <dd>{latest[f] || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Retire the reward (off the member center at once; its coupons stay) or offer it again, over the version seen. */
export function RewardStatus({ active, version }: { active: boolean; version: number }) {
  const t = useConsoleT();
  return (
    <DetailSection
      id="status-title"
      title={t("console.programme.reward.statusTitle")}
      lead={t("console.programme.reward.retireHint")}
      className="mt-6"
    >
      <Form method="post">
        <input type="hidden" name="intent" value={active ? "retire" : "reactivate"} />
        <input type="hidden" name="version" value={version} />
        <Button type="submit" variant={active ? "danger" : "secondary"}>
          {t(active ? "console.programme.reward.retire" : "console.programme.reward.reactivate")}
        </Button>
      </Form>
    </DetailSection>
  );
}
