import { CheckboxField } from "~/components/ui/checkbox";
import { Link } from "~/components/ui/link";
import { useLocale, useT } from "~/lib/i18n";
import { links } from "~/lib/links";

/**
 * The consent to the terms and the privacy notice (個資法 §8), with links to both: sign-up step 1 and the
 * acceptance page of imported members (/accept-terms) ask with the same words.
 */
export function ConsentField({ checked, errors }: { checked: boolean; errors?: readonly string[] | null }) {
  const t = useT();
  const locale = useLocale();
  return (
    <CheckboxField
      name="consent"
      defaultChecked={checked}
      errors={errors}
      label={
        <>
          {t("auth.consent.prefix")}{" "}
          <Link to={links.terms()} target="_blank" className="underline underline-offset-4" lang={locale}>
            {t("footer.terms")}
          </Link>{" "}
          {t("auth.consent.and")}{" "}
          <Link to={links.privacy()} target="_blank" className="underline underline-offset-4">
            {t("footer.privacy")}
          </Link>
        </>
      }
    />
  );
}
