/** What the staff pages share on the server: the access a form asks for. */

/** The role and stores of a staff form (stores are repeated checkboxes). */
export function accessFromForm(form: FormData): { role: string; storeIds: string[] } {
  return {
    role: String(form.get("role") ?? ""),
    storeIds: form.getAll("storeIds").map(String).slice(0, 200),
  };
}
