import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { Card, Skeleton } from "~/components/ui/card";
import { CheckboxField } from "~/components/ui/checkbox";
import { Dialog, DialogClose } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { SelectField } from "~/components/ui/select";
import { runCrudRoundTrip } from "~/domain/diagnostics/crud-round-trip.server";
import { sendTestMessage } from "~/domain/diagnostics/test-message.server";
import { readForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/test-crud";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "testCrud.title", "testCrud.lead"),
  { name: "robots", content: "noindex" },
];

/** Developer diagnostics. In production it is a 404 unless ENABLE_TEST_CRUD=true. */
function requireEnabled(request: Request, context: Route.LoaderArgs["context"]) {
  const app = getApp(context);
  if (!app.config.enableTestCrud) notFound(request);
  return app;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = requireEnabled(request, context);
  const migrations = await app.migrationStatus();
  return {
    driver: app.driver,
    migrations,
    appEnv: app.config.appEnv,
    // Sending real messages from an unauthenticated page is for development machines only.
    messagingTest: !app.config.isProduction,
    messages: routeMessages(getLocale(request), "testCrud."),
  };
}

type MessagingResult = {
  steps: null;
  queued?: { channel: "sms" | "email"; to: string };
  recipient?: string;
  messageError?: MessageKey;
};

async function queueTestMessage(
  messaging: ReturnType<typeof getApp>["messaging"],
  request: Request,
  intent: "send-sms" | "send-email",
  recipient: string,
) {
  const channel = intent === "send-sms" ? "sms" : "email";
  const result = await sendTestMessage(messaging, { channel, recipient, locale: getLocale(request) });
  if (!result.queued) {
    const messageError: MessageKey =
      result.reason === "invalid-phone" ? "testCrud.invalidPhone" : "testCrud.invalidEmail";
    return data<MessagingResult>({ steps: null, recipient, messageError }, { status: 400 });
  }
  return data<MessagingResult>({ steps: null, recipient, queued: { channel, to: recipient } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = requireEnabled(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const toastSettings = { secret: app.config.secrets.session, secure: app.config.isProduction };
  switch (intent) {
    case "crud":
      return { steps: await runCrudRoundTrip(app.db, `probe ${new Date().toISOString()}`) };
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, 3000));
      return { steps: null };
    case "throw":
      throw new Error("Diagnostics: deliberate server error");
    case "toast-positive":
      return redirectWithToast(toastSettings, "/test-crud", { type: "success", message: "notice.sample" });
    case "toast-negative":
      return redirectWithToast(toastSettings, "/test-crud", { type: "error", message: "notice.sample" });
    case "send-sms":
    case "send-email":
      if (app.config.isProduction) notFound(request);
      return queueTestMessage(app.messaging, request, intent, String(form.get("recipient") ?? ""));
    default:
      return data({ steps: null }, { status: 400 });
  }
}

export default function TestCrudPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const navigation = useNavigation();
  const pendingIntent = navigation.formData?.get("intent");
  const [dialogOpen, setDialogOpen] = useState(false);
  const { migrations } = loaderData;

  return (
    <Page title={t("testCrud.title")} lead={t("testCrud.lead")}>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
            <dt className="text-muted">{t("testCrud.driver")}</dt>
            <dd data-testid="driver" className="font-mono">
              {loaderData.driver}
            </dd>
            <dt className="text-muted">{t("testCrud.migrations")}</dt>
            <dd data-testid="migrations">
              {migrations.applied} / {migrations.expected} ·{" "}
              {migrations.upToDate ? t("testCrud.upToDate") : t("testCrud.pending")}
            </dd>
            <dt className="text-muted">APP_ENV</dt>
            <dd className="font-mono">{loaderData.appEnv}</dd>
          </dl>
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <Button name="intent" value="crud" pending={pendingIntent === "crud"}>
              {t("testCrud.run")}
            </Button>
            <Button name="intent" value="slow" variant="secondary" pending={pendingIntent === "slow"}>
              {t("testCrud.slow")}
            </Button>
            <Button name="intent" value="throw" variant="danger">
              {t("testCrud.throw")}
            </Button>
            <Button name="intent" value="toast-positive" variant="ghost">
              {t("testCrud.toastPositive")}
            </Button>
            <Button name="intent" value="toast-negative" variant="ghost">
              {t("testCrud.toastNegative")}
            </Button>
          </Form>
        </Card>
        <Card aria-live="polite">
          {actionData?.steps ? (
            <>
              <h2 className="font-semibold">{t("testCrud.done")}</h2>
              <table className="mt-3 w-full text-left text-sm" data-testid="crud-steps">
                <thead>
                  <tr className="text-muted">
                    <th className="py-1 font-normal">{t("testCrud.step")}</th>
                    <th className="py-1 font-normal">{t("testCrud.result")}</th>
                  </tr>
                </thead>
                <tbody>
                  {actionData.steps.map((s) => (
                    <tr key={s.step} className="border-t border-line">
                      <td className="py-1.5 font-mono">{s.step}</td>
                      <td className={s.ok ? "py-1.5 text-success-700" : "py-1.5 text-danger-700"}>
                        {s.ok ? t("testCrud.ok") : t("testCrud.failed")} · <span className="font-mono">{s.detail}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <div className="space-y-3">
              <Skeleton className="h-5 w-1/2" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
            </div>
          )}
        </Card>
      </div>

      {loaderData.messagingTest ? <MessagingTest t={t} actionData={actionData} pendingIntent={pendingIntent} /> : null}

      <h2 className="mt-12 text-2xl font-semibold">{t("testCrud.uiKit")}</h2>
      <Card className="mt-4 grid gap-6 md:grid-cols-2">
        <Field
          label="Input"
          description="Description text under the field"
          inputProps={{ name: "sample", defaultValue: "0912-345-678", inputMode: "tel" }}
        />
        <Field
          label="Input with error"
          errors={["請輸入正確的手機號碼"]}
          inputProps={{ name: "sample-error", defaultValue: "0912" }}
        />
        <SelectField
          label="Select"
          name="city"
          defaultValue="taipei"
          options={[
            { value: "taipei", label: "臺北市" },
            { value: "taichung", label: "臺中市" },
            { value: "kaohsiung", label: "高雄市" },
          ]}
        />
        <CheckboxField label="Checkbox" name="sample-checkbox" />
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button variant="brand">Brand</Button>
          <Button variant="secondary">Secondary</Button>
          <Button pending>Pending</Button>
          <Dialog
            open={dialogOpen}
            onOpenChange={setDialogOpen}
            trigger={<Button variant="secondary">Dialog</Button>}
            title="Dialog"
            description="A modal dialog with a focus trap."
            footer={
              <DialogClose asChild>
                <Button>{t("common.confirm")}</Button>
              </DialogClose>
            }
          />
        </div>
      </Card>
    </Page>
  );
}

function MessagingTest({
  t,
  actionData,
  pendingIntent,
}: {
  t: ReturnType<typeof useT>;
  actionData: Route.ComponentProps["actionData"];
  pendingIntent: FormDataEntryValue | null | undefined;
}) {
  const result = actionData && "recipient" in actionData ? (actionData as MessagingResult) : undefined;
  return (
    <section aria-labelledby="messaging-test" className="mt-12">
      <h2 id="messaging-test" className="text-2xl font-semibold">
        {t("testCrud.messaging")}
      </h2>
      <p className="mt-2 text-muted">{t("testCrud.messagingLead")}</p>
      <Card className="mt-4">
        <Form method="post" className="grid gap-4 md:grid-cols-[1fr_auto] md:items-start">
          <Field
            label={t("testCrud.recipient")}
            description={t("testCrud.recipientHint")}
            errors={result?.messageError ? [t(result.messageError)] : null}
            inputProps={{
              name: "recipient",
              defaultValue: result?.recipient ?? "",
              autoComplete: "off",
              spellCheck: false,
              required: true,
            }}
          />
          <div className="flex flex-wrap gap-3 md:pt-7">
            <Button name="intent" value="send-sms" variant="secondary" pending={pendingIntent === "send-sms"}>
              {t("testCrud.sendSms")}
            </Button>
            <Button name="intent" value="send-email" variant="secondary" pending={pendingIntent === "send-email"}>
              {t("testCrud.sendEmail")}
            </Button>
          </div>
        </Form>
        <div aria-live="polite">
          {result?.queued ? (
            <p className="mt-4 text-success-700" data-testid="message-queued">
              {t("testCrud.queued", { to: result.queued.to })} ·{" "}
              <Link
                to={links.devOutbox({ to: result.queued.to, channel: result.queued.channel })}
                className="underline underline-offset-4"
              >
                {t("testCrud.openOutbox")}
              </Link>
            </p>
          ) : null}
        </div>
      </Card>
    </section>
  );
}
