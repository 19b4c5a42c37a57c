import { CalendarDays, ChevronRight } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import type { Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import { Link2, LockKeyhole, ShieldCheck, UserPen } from "./icons";

/** The account pages, one row each with what is found there. */
const SETTINGS = [
  // 我的預約 (issue 37): showroom appointments, upcoming and past.
  {
    to: links.memberAppointments(),
    icon: CalendarDays,
    label: "member.center.settings.appointments",
    hint: "member.center.settings.appointmentsHint",
  },
  {
    to: links.editInfo(),
    icon: UserPen,
    label: "member.center.settings.editInfo",
    hint: "member.center.settings.editInfoHint",
  },
  {
    to: links.security(),
    icon: LockKeyhole,
    label: "member.center.settings.security",
    hint: "member.center.settings.securityHint",
  },
  {
    to: links.linkedLogins(),
    icon: Link2,
    label: "member.center.settings.linkedLogins",
    hint: "member.center.settings.linkedLoginsHint",
  },
  {
    to: links.memberPrivacy(),
    icon: ShieldCheck,
    label: "member.center.settings.privacy",
    hint: "member.center.settings.privacyHint",
  },
] as const;

export function SettingsLinks({ t }: { t: Translate }) {
  return (
    <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white" data-testid="settings">
      {SETTINGS.map(({ to, icon: Icon, label, hint }) => (
        <li key={to}>
          <Link
            to={to}
            className="flex min-h-16 items-center gap-4 px-4 py-3 hover:bg-sand/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700"
          >
            <Icon className="size-5 shrink-0 text-brand-700" />
            <span className="min-w-0 flex-1">
              <span className="block font-medium text-ink">{t(label)}</span>
              <span className="block truncate text-sm text-muted">{t(hint)}</span>
            </span>
            <ChevronRight className="size-4 shrink-0 text-muted" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
