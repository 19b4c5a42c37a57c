import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { ConsoleAuthFrame } from "../auth-frame";
import { ConsoleCodeForm } from "../code-form";
import { useConsoleT } from "../use-console-t";

/** The enrolment: the authenticator's QR code and its secret written out, then the first code from the app. */
export function EnrolmentStart({ qr, secret }: { qr: string; secret: string }) {
  const t = useConsoleT();
  return (
    <ConsoleAuthFrame title={t("console.enrol.title")} lead={t("console.enrol.lead")}>
      <div className="mx-auto w-48">
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(qr)}`}
          alt={t("console.enrol.qrAlt")}
          width={192}
          height={192}
        />
      </div>
      <p className="mt-4 text-center text-sm text-muted">{t("console.enrol.secret")}</p>
      <p className="text-center font-mono text-base tracking-wider break-all" data-testid="totp-secret">
        {secret}
      </p>
      <ConsoleCodeForm submitLabel={t("console.enrol.submit")} inputMode="numeric" maxLength={16} className="mt-6" />
    </ConsoleAuthFrame>
  );
}

/** After the enrolment: the recovery codes, shown once, and the way on into the console. */
export function RecoveryCodes({ codes, continueTo }: { codes: readonly string[]; continueTo: string }) {
  const t = useConsoleT();
  return (
    <ConsoleAuthFrame title={t("console.enrol.codesTitle")} lead={t("console.enrol.codesLead")}>
      <ol className="grid grid-cols-2 gap-2 font-mono text-base" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-sand px-3 py-2 text-center">
            {code}
          </li>
        ))}
      </ol>
      <Link to={continueTo} className={`${buttonVariants({ variant: "primary", block: true })} mt-6`}>
        {t("console.enrol.continue")}
      </Link>
    </ConsoleAuthFrame>
  );
}
