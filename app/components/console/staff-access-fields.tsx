import { useId, useState } from "react";
import { ErrorList } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { STAFF_ROLES, type StaffRole } from "~/domain/staff/permissions";
import { useConsoleT } from "./use-console-t";

/**
 * A staff member's role and stores, as the invitation and the staff page ask for them: the role with what
 * it may do, and the stores as checkboxes (an administrator works at every store, so the stores step back).
 */
export function StaffAccessFields({
  stores,
  role: initialRole,
  storeIds,
  errors,
}: {
  stores: { id: string; name: string }[];
  role: string;
  storeIds: readonly string[];
  errors: (field: string) => string[] | null;
}) {
  const t = useConsoleT();
  const [role, setRole] = useState(initialRole || "staff");
  const legendId = useId();
  const storeErrors = errors("storeIds");
  const known = (STAFF_ROLES as readonly string[]).includes(role) ? (role as StaffRole) : "staff";
  return (
    <>
      <NativeSelectField
        label={t("console.staff.role")}
        description={t(`console.staff.roleHint.${known}`)}
        errors={errors("role")}
        selectProps={{
          name: "role",
          value: role,
          onChange: (e) => setRole(e.currentTarget.value),
          className: "sm:max-w-72",
        }}
      >
        {STAFF_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`console.role.${r}`)}
          </option>
        ))}
      </NativeSelectField>
      <fieldset aria-describedby={`${legendId}-hint`} disabled={role === "admin"} className="disabled:opacity-60">
        <legend className="text-sm font-medium text-ink">{t("console.staff.stores")}</legend>
        <p id={`${legendId}-hint`} className="mt-1 text-sm text-muted">
          {t("console.staff.storesHint")}
        </p>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {stores.map((s) => (
            <li key={s.id}>
              <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line bg-white px-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50/60">
                <input
                  type="checkbox"
                  name="storeIds"
                  value={s.id}
                  defaultChecked={storeIds.includes(s.id)}
                  aria-invalid={storeErrors?.length ? true : undefined}
                  className="size-5 accent-brand-700"
                />
                <span>{s.name}</span>
              </label>
            </li>
          ))}
        </ul>
        <ErrorList errors={storeErrors} />
      </fieldset>
    </>
  );
}
