import { useEffect } from "react";
import { useActionData } from "react-router";
import { announce } from "./announcer";
import { type Translate, useT } from "./i18n";

type FormState = {
  ok?: boolean;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
  formError?: string;
};

/**
 * Reads the last failed submission (errors per field, values as typed) for a form's fields, and
 * takes the member to the problem: every form that shows field errors reads them here, so every
 * one of them gets `useFocusFirstError`.
 */
export function useFormState() {
  const state = useActionData() as FormState | undefined;
  useFocusFirstError(state?.errors);
  return {
    errors: (field: string) => state?.errors?.[field] ?? null,
    value: (field: string, fallback = "") => state?.values?.[field] ?? fallback,
    checked: (field: string, fallback = false) => (state?.values ? state.values[field] === "on" : fallback),
    formError: state?.formError ?? null,
    state,
  };
}

/**
 * After a refused submission the errors may be far above the button that was pressed: move the
 * focus to the first field marked invalid (scrolled to the middle of the screen, clear of the
 * sticky header) and announce how many fields need a fix, naming the first; the field's own
 * error is tied to it by aria-describedby, so it is read on focus.
 */
export function useFocusFirstError(errors: Record<string, string[]> | undefined): void {
  const t = useT();
  useEffect(() => {
    if (!errors || !Object.values(errors).some((list) => list?.length)) return;
    const scope = document.getElementById("main") ?? document.body;
    const invalid = Array.from(scope.querySelectorAll<HTMLElement>('[aria-invalid="true"]'));
    const first = invalid[0];
    if (!first) return;
    if (document.activeElement !== first) {
      first.focus({ preventScroll: true });
      const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      first.scrollIntoView({ block: "center", behavior: reduceMotion ? "auto" : "smooth" });
    }
    announce(errorSummary(first, invalid.length, t));
  }, [errors, t]);
}

/**
 * What the live region says. The error text itself is left to the field (read on focus through
 * aria-describedby), so it is not spoken twice and each message stays once on the page.
 */
function errorSummary(field: HTMLElement, count: number, t: Translate): string {
  const label = (field as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? "";
  return count > 1 ? t("form.fixFields", { count, label }) : t("form.fixField", { label });
}
