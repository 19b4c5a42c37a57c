import { useActionData } from "react-router";

type FormState = {
  ok?: boolean;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
  formError?: string;
};

/** Reads the last failed submission (errors per field, values as typed) for a form's fields. */
export function useFormState() {
  const state = useActionData() as FormState | undefined;
  return {
    errors: (field: string) => state?.errors?.[field] ?? null,
    value: (field: string, fallback = "") => state?.values?.[field] ?? fallback,
    checked: (field: string, fallback = false) => (state?.values ? state.values[field] === "on" : fallback),
    formError: state?.formError ?? null,
    state,
  };
}
