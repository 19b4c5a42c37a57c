import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import type { useT } from "~/lib/i18n";
import type { useFormState } from "~/lib/use-form-state";

/**
 * A guest's phone verified by a code by SMS, for a booking (book.tsx) and for finding one's bookings (find.tsx): the
 * phone, then — once a code was sent — the code and the step's own submit, and "send the code" (again). The action
 * answers `intent` "…-code" with `codeSent` (the number as the member typed it back) or a refusal beside the field.
 */
export function PhoneCodeFields({
  t,
  form,
  phoneName,
  codeSent,
  pending,
  sendIntent,
  submit,
}: {
  t: ReturnType<typeof useT>;
  form: ReturnType<typeof useFormState>;
  phoneName: string;
  codeSent: string | null;
  pending: boolean;
  sendIntent: string;
  submit: { intent: string; label: string; disabled?: boolean };
}) {
  return (
    <>
      <Field
        label={t("appointments.guest.phone")}
        errors={form.errors(phoneName)}
        inputProps={{
          name: phoneName,
          type: "tel",
          inputMode: "tel",
          defaultValue: form.value(phoneName),
          maxLength: 20,
          autoComplete: "tel-national",
          required: true,
        }}
      />
      {codeSent ? (
        <>
          <p className="text-sm" role="status">
            {t("appointments.guest.codeSent", { phone: codeSent })}
          </p>
          <input type="hidden" name="codeSent" value={codeSent} />
          <Field
            label={t("appointments.guest.code")}
            errors={form.errors("code")}
            inputProps={{
              name: "code",
              inputMode: "numeric",
              autoComplete: "one-time-code",
              maxLength: 6,
              required: true,
            }}
          />
          <Button
            type="submit"
            name="intent"
            value={submit.intent}
            block
            size="lg"
            pending={pending}
            disabled={submit.disabled}
          >
            {submit.label}
          </Button>
        </>
      ) : null}
      <Button
        type="submit"
        name="intent"
        value={sendIntent}
        variant={codeSent ? "secondary" : "primary"}
        block
        pending={pending && !codeSent}
      >
        {t("appointments.guest.sendCode")}
      </Button>
    </>
  );
}
