import { Check } from "~/components/ui/icons";
import { cn } from "~/lib/cn";
import { useT } from "~/lib/i18n";

/** The three sign-up steps, with the current one marked for assistive technology. */
export function SignupSteps({ current }: { current: 1 | 2 | 3 }) {
  const t = useT();
  const labels = [t("page.signupPhone.title"), t("page.signupPassword.title"), t("page.signupInfo.title")];
  return (
    <ol className="mb-8 grid grid-cols-3 gap-2" aria-label={t("page.signup.step", { step: current })}>
      {labels.map((label, i) => {
        const step = i + 1;
        const done = step < current;
        return (
          <li key={label} aria-current={step === current ? "step" : undefined} className="flex flex-col gap-2">
            <span className={cn("h-1 rounded-full", step <= current ? "bg-ink" : "bg-stone")} aria-hidden />
            <span
              className={cn(
                "flex items-center gap-1 text-xs",
                step === current ? "font-semibold text-ink" : "text-muted",
              )}
            >
              {done ? <Check aria-hidden className="size-3" /> : null}
              {label.split("：")[1] ?? label.split(": ")[1] ?? label}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
