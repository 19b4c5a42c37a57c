import type { AutomaticKind, MessageChannel } from "@platform/db/schema/member-message-kinds";
import { Link } from "~/components/ui/link";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/** The automatic messages at a glance: each one on or off, when it goes, its channels, and its edit link. */
export function AutomaticCards({
  automatic,
}: {
  automatic: readonly { kind: AutomaticKind; enabled: boolean; channels: readonly MessageChannel[] }[];
}) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="automatic-title" className="mt-8">
      <h2 id="automatic-title" className="text-xl font-semibold">
        {t("console.messages.automatic.title")}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">{t("console.messages.automatic.lead")}</p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="automatic-list">
        {automatic.map((a) => {
          const kind = t(`console.messages.kind.${a.kind}` as MessageKey);
          return (
            <li
              key={a.kind}
              className="flex flex-col rounded-2xl border border-line bg-white p-4"
              data-testid="automatic-item"
            >
              <div className="flex items-start justify-between gap-3">
                <h3 className="font-medium">{kind}</h3>
                <span
                  className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${
                    a.enabled ? "bg-success-700/10 text-success-700" : "bg-sand text-muted"
                  }`}
                >
                  {t(a.enabled ? "console.messages.automatic.on" : "console.messages.automatic.off")}
                </span>
              </div>
              <p className="mt-1 text-sm text-muted">{t(`console.messages.when.${a.kind}` as MessageKey)}</p>
              <p className="mt-2 text-sm">
                {a.channels.map((c) => t(`console.messages.channel.${c}` as MessageKey)).join(" · ")}
              </p>
              <Link
                to={`/admin/messages/automatic/${a.kind}`}
                className="mt-auto self-start pt-3 text-sm font-medium underline underline-offset-4"
                aria-label={`${t("console.messages.automatic.edit")}：${kind}`}
              >
                {t("console.messages.automatic.edit")}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
