import type { FormEvent } from "react";
import { useNavigate } from "react-router";

/**
 * Filter forms are plain GET forms (they work without JavaScript). With JavaScript they navigate on
 * the client instead, leaving empty fields out of the URL (`?city=taipei`, not `?city=taipei&q=`), so
 * shared links stay short and each change is one history entry for the Back button.
 */
export function useFilterNavigation() {
  const navigate = useNavigate();
  const go = (form: HTMLFormElement | null) => {
    if (!form) return;
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === "string" && value.trim() !== "") params.append(key, value.trim());
    }
    const query = params.toString();
    navigate(`${new URL(form.action).pathname}${query ? `?${query}` : ""}`, { preventScrollReset: true });
  };
  return {
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      go(event.currentTarget);
    },
    submitForm: go,
  };
}
