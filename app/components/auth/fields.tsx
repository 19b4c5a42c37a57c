import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Eye, EyeOff } from "~/components/ui/icons";
import { estimateStrength, PASSWORD_MAX, PASSWORD_MIN } from "~/domain/auth/password-policy";
import { cn } from "~/lib/cn";
import { type MessageKey, useT } from "~/lib/i18n";

type Errors = readonly string[] | null | undefined;

export function PhoneField({
  defaultValue,
  errors,
  name = "phone",
}: {
  defaultValue?: string;
  errors?: Errors;
  name?: string;
}) {
  const t = useT();
  return (
    <Field
      label={t("auth.phone.label")}
      description={t("auth.phone.description")}
      errors={errors}
      inputProps={{
        name,
        type: "tel",
        inputMode: "tel",
        autoComplete: "tel-national",
        required: true,
        maxLength: 20,
        placeholder: "0912-345-678",
        defaultValue,
      }}
    />
  );
}

export function CodeField({ errors }: { errors?: Errors }) {
  const t = useT();
  return (
    <Field
      label={t("auth.code.label")}
      errors={errors}
      inputProps={{
        name: "code",
        inputMode: "numeric",
        autoComplete: "one-time-code",
        pattern: "\\d{6}",
        maxLength: 6,
        required: true,
        className: "text-center font-mono text-2xl tracking-[0.5em]",
      }}
    />
  );
}

/** The code form of a code flow: the 6-digit code and its submit button, which posts `intent`. */
export function CodeForm({
  errors,
  intent,
  submitLabel,
  pending,
}: {
  errors?: Errors;
  intent: string;
  submitLabel: string;
  pending: boolean;
}) {
  return (
    <Form method="post" className="space-y-5" noValidate>
      <CodeField errors={errors} />
      <Button type="submit" name="intent" value={intent} block size="lg" pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}

const STRENGTH_KEYS: MessageKey[] = [
  "auth.password.strength0",
  "auth.password.strength1",
  "auth.password.strength2",
  "auth.password.strength3",
  "auth.password.strength4",
];
const STRENGTH_COLORS = ["bg-stone", "bg-danger-700", "bg-brand-500", "bg-success-700", "bg-success-700"];

/** New password + confirmation, with a strength meter and a show/hide toggle. */
export function NewPasswordFields({ errors, confirmErrors }: { errors?: Errors; confirmErrors?: Errors }) {
  const t = useT();
  const [value, setValue] = useState("");
  const [visible, setVisible] = useState(false);
  const strength = estimateStrength(value);
  const type = visible ? "text" : "password";
  return (
    <div className="space-y-5">
      <div>
        <Field
          label={t("auth.password.new")}
          description={t("auth.password.hint")}
          errors={errors}
          inputProps={{
            name: "password",
            type,
            autoComplete: "new-password",
            required: true,
            minLength: PASSWORD_MIN,
            maxLength: PASSWORD_MAX,
            onChange: (e) => setValue(e.currentTarget.value),
          }}
        />
        <div className="mt-2 flex items-center gap-3">
          <div className="flex flex-1 gap-1" aria-hidden>
            {[1, 2, 3, 4].map((i) => (
              <span
                key={i}
                className={cn("h-1.5 flex-1 rounded-full", i <= strength ? STRENGTH_COLORS[strength] : "bg-stone")}
              />
            ))}
          </div>
          <p className="text-sm text-muted" aria-live="polite">
            {t("auth.password.strength", { level: t(STRENGTH_KEYS[strength] as MessageKey) })}
          </p>
        </div>
      </div>
      <Field
        label={t("auth.password.confirm")}
        errors={confirmErrors}
        inputProps={{
          name: "confirmPassword",
          type,
          autoComplete: "new-password",
          required: true,
          minLength: PASSWORD_MIN,
          maxLength: PASSWORD_MAX,
        }}
      />
      <label className="flex items-center gap-2 text-sm text-muted">
        <input type="checkbox" className="size-4 accent-ink" onChange={(e) => setVisible(e.currentTarget.checked)} />
        {visible ? <Eye aria-hidden className="size-4" /> : <EyeOff aria-hidden className="size-4" />}
        {t("auth.password.show")}
      </label>
    </div>
  );
}

/** "Resend in N s", counting down in the browser from the server's cooldown. */
export function useCountdown(availableAt: number | null | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!availableAt) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [availableAt]);
  return availableAt ? Math.max(0, Math.ceil((availableAt - now) / 1000)) : 0;
}
