import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * One of the member page's forms: its fields (if any) and the button that posts its `intent`, busy while that
 * intent is on its way. `after` follows the button (a "keep it" link).
 */
export function IntentForm({
  intent,
  label,
  fields,
  hidden,
  after,
  variant = "secondary",
  size,
  className,
}: {
  intent: string;
  label: ReactNode;
  fields?: ReactNode;
  hidden?: Record<string, string>;
  after?: ReactNode;
  variant?: "primary" | "secondary" | "danger";
  size?: "sm";
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className={className}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields}
      <Button type="submit" name="intent" value={intent} variant={variant} size={size} pending={busy}>
        {label}
      </Button>
      {after}
    </Form>
  );
}
