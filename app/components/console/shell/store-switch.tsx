import { Form, useLocation } from "react-router";
import { inputClass } from "~/components/ui/input-class";
import { cn } from "~/lib/cn";
import { useConsoleT } from "../use-console-t";

export type StoreOption = { id: string; name: string };

/** The switch between the stores a person works at (only when they have more than one). */
export function StoreSwitch({ stores, currentStoreId }: { stores: StoreOption[]; currentStoreId: string | null }) {
  const t = useConsoleT();
  const location = useLocation();
  return (
    <Form method="post" action="/admin/store" className="flex items-end gap-2">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label className="min-w-0 flex-1 text-sm">
        <span className="block text-muted">{t("console.store.label")}</span>
        <select
          name="storeId"
          defaultValue={currentStoreId ?? ""}
          className={cn(inputClass, "mt-1 min-h-11 py-0")}
          data-testid="console-store-select"
        >
          {currentStoreId ? null : <option value="">{t("console.store.choose")}</option>}
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="min-h-11 shrink-0 rounded-xl border border-line px-4 text-sm hover:bg-sand">
        {t("console.store.switch")}
      </button>
    </Form>
  );
}
