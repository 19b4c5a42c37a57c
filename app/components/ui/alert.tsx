import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/** An inline notice. Errors are announced (role=alert), information politely (role=status). */
export function Alert({
  tone = "info",
  title,
  children,
  className,
}: {
  tone?: "info" | "error" | "success";
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-2xl border px-4 py-3 text-base",
        tone === "error" && "border-danger-700/30 bg-danger-700/5 text-danger-800",
        tone === "success" && "border-success-700/30 bg-success-700/5 text-success-700",
        tone === "info" && "border-line bg-white text-ink",
        className,
      )}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
