import { RICH_MENU_STATES, type RichMenuState } from "@platform/db/schema";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { HiddenForm, PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { ErrorList, Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { createLineRichMenuClient } from "~/domain/line/rich-menu-client.server";
import {
  AREA_ROWS_MAX,
  checkRichMenu,
  checkRichMenuImage,
  parseRichMenuForm,
  RICH_MENU_AREA_KINDS,
  RICH_MENU_RULES,
  type RichMenuProblems,
} from "~/domain/line/rich-menu-input";
import { memberCardUrl, publishRichMenu, removeRichMenu, richMenuOf } from "~/domain/line/rich-menus.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/state";
import { maxLength, rowsSent, stateHintKey, stateKey } from "./rich-menus";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.richMenus.title");

const stateParam = z.enum(RICH_MENU_STATES);
/** Area rows a new menu's form starts with. */
const NEW_MENU_ROWS = 3;

function stateOf(params: { state?: string }): RichMenuState {
  const state = stateParam.safeParse(params.state);
  if (!state.success) throw data(null, { status: 404 });
  return state.data;
}

/** One state's rich menu (admins, `line.richmenu`; ADR 049): the form, published at LINE when sent. */
export async function loader({ params, context }: Route.LoaderArgs) {
  requirePermission(context, "line.richmenu");
  const state = stateOf(params);
  const current = await richMenuOf(getApp(context).db, state);
  return {
    state,
    current: current
      ? {
          title: current.title,
          chatBarText: current.chatBarText,
          selected: current.selected === 1,
          width: current.width,
          height: current.height,
          imageType: current.imageType === "image/png" ? "PNG" : "JPEG",
          areas: current.areas,
        }
      : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "line.richmenu");
  const state = stateOf(params);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form);
  const rows = Math.max(rowsSent(values), 1);
  const intent = String(form.get("intent") ?? "publish");
  if (intent === "add-area") return { values, rows: Math.min(rows + 1, AREA_ROWS_MAX) };
  const line = app.delivery.line;
  const deps = {
    db: app.db,
    richMenus: line ? createLineRichMenuClient(line) : null,
    cardUrl: memberCardUrl(
      app.config.publicBaseUrl,
      app.config.line.mode === "disabled" ? null : app.config.line.liffId,
    ),
  };
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  if (intent === "remove") {
    try {
      await removeRichMenu(deps, actor, state, audit, now);
      return redirect(`/admin/rich-menus?removed=${state}`);
    } catch (error) {
      return consoleFailure(error, form, t, { answer: { rows } });
    }
  }

  const parsed = parseRichMenuForm(values);
  const problems: RichMenuProblems = parsed.ok ? {} : { ...parsed.problems };
  let image: { bytes: Uint8Array; type: "image/png" | "image/jpeg"; width: number; height: number } | null = null;
  const file = form.get("image");
  if (file instanceof File && file.size > 0) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const checked = checkRichMenuImage(bytes);
    if (checked.ok) image = { bytes, ...checked.header };
    else problems.image = [checked.problem];
  }
  const current = image ? null : await richMenuOf(app.db, state);
  const size = image ?? current;
  if (!size && !problems.image) problems.image = ["required"];
  if (parsed.ok && size) Object.assign(problems, checkRichMenu(parsed.value, size));
  if (!parsed.ok || Object.keys(problems).length > 0) {
    const errors: Record<string, string[]> = {};
    for (const [field, codes] of Object.entries(problems)) {
      errors[field] = codes.map((code) => {
        if (field === "image" && code === "required") return t("console.richMenus.error.imageRequired");
        if (code === "tooLong")
          return t("console.richMenus.problem.tooLong", { max: String(maxLength(field, values)) });
        if (code === "outOfBounds")
          return t("console.richMenus.problem.outOfBounds", {
            width: String(size?.width ?? 0),
            height: String(size?.height ?? 0),
          });
        return t(`console.richMenus.problem.${code}`);
      });
    }
    return data({ errors, values, rows, formError: t("console.richMenus.error.form") }, { status: 400 });
  }
  try {
    await publishRichMenu(deps, actor, { state, menu: parsed.value, image }, audit, now);
    return redirect(`/admin/rich-menus?published=${state}`);
  } catch (error) {
    return consoleFailure(error, form, t, { answer: { rows } });
  }
}

export default function RichMenuEditor({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { state, current } = loaderData;
  const answer = form.state as { rows?: number } | undefined;
  const rows = answer?.rows ?? Math.max(current?.areas.length ?? NEW_MENU_ROWS, 1);
  const area = (i: number) => current?.areas[i];
  const stateName = t(stateKey(state));
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/rich-menus", label: t("console.richMenus.back") }}
      title={t("console.richMenus.editTitle", { state: stateName })}
      lead={t(stateHintKey(state))}
      notices={<PageNotices done={null} error={form.formError} />}
    >
      <Form method="post" encType="multipart/form-data" className="mt-6 space-y-6" data-testid="rich-menu-form">
        <DetailSection as="fieldset" title={t("console.richMenus.section.menu")}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t("console.richMenus.field.title")}
              errors={form.errors("title")}
              inputProps={{
                name: "title",
                required: true,
                maxLength: RICH_MENU_RULES.titleMax,
                defaultValue: form.value("title", current?.title ?? ""),
              }}
            />
            <Field
              label={t("console.richMenus.field.chatBarText")}
              description={t("console.richMenus.field.chatBarTextHint")}
              errors={form.errors("chatBarText")}
              inputProps={{
                name: "chatBarText",
                required: true,
                defaultValue: form.value("chatBarText", current?.chatBarText ?? ""),
              }}
            />
          </div>
          <CheckboxField
            name="selected"
            label={t("console.richMenus.field.selected")}
            defaultChecked={form.state ? form.value("selected") === "on" : (current?.selected ?? false)}
          />
        </DetailSection>

        <DetailSection as="fieldset" title={t("console.richMenus.section.image")}>
          <Field
            label={t("console.richMenus.field.image")}
            description={
              <>
                {t("console.richMenus.field.imageHint")}{" "}
                {current
                  ? t("console.richMenus.field.imageCurrent", {
                      width: String(current.width),
                      height: String(current.height),
                      type: current.imageType,
                    })
                  : null}{" "}
                {form.state ? t("console.richMenus.field.imageAgain") : null}
              </>
            }
            errors={form.errors("image")}
            inputProps={{ name: "image", type: "file", accept: "image/png,image/jpeg", required: !current }}
          />
        </DetailSection>

        <DetailSection
          as="fieldset"
          title={t("console.richMenus.section.areas")}
          lead={t("console.richMenus.areasHint")}
          testId="rich-menu-areas"
        >
          <ErrorList errors={form.errors("areas")} />
          {Array.from({ length: rows }, (_, i) => {
            const saved = area(i);
            const v = (f: string, fallback: string | number | undefined) =>
              form.value(`a${i}${f}`, fallback === undefined ? "" : String(fallback));
            const number = (f: string, label: string, fallback: number | undefined, extra: string[] | null = null) => (
              <Field
                label={label}
                errors={[...(form.errors(`a${i}${f}`) ?? []), ...(extra ?? [])]}
                inputProps={{
                  name: `a${i}${f}`,
                  inputMode: "numeric",
                  pattern: "[0-9]*",
                  maxLength: 5,
                  defaultValue: v(f, fallback),
                  "aria-label": `${t("console.richMenus.area", { n: String(i + 1) })} ${label}`,
                }}
              />
            );
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions of the form
              <fieldset key={i} className="rounded-xl border border-line p-4" data-testid="rich-menu-area">
                <legend className="px-1 text-sm font-semibold">
                  {t("console.richMenus.area", { n: String(i + 1) })}
                </legend>
                <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
                  {number("x", t("console.richMenus.area.x"), saved?.x, form.errors(`a${i}`))}
                  {number("y", t("console.richMenus.area.y"), saved?.y)}
                  {number("w", t("console.richMenus.area.width"), saved?.width)}
                  {number("h", t("console.richMenus.area.height"), saved?.height)}
                </div>
                <div className="mt-3 grid gap-3 sm:grid-cols-2">
                  <NativeSelectField
                    label={t("console.richMenus.area.kind")}
                    errors={form.errors(`a${i}kind`)}
                    selectProps={{
                      name: `a${i}kind`,
                      defaultValue: v("kind", saved?.kind ?? (i === 0 ? "card" : "uri")),
                    }}
                  >
                    {RICH_MENU_AREA_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {t(`console.richMenus.kind.${kind}`)}
                      </option>
                    ))}
                  </NativeSelectField>
                  <Field
                    label={t("console.richMenus.area.value")}
                    description={t("console.richMenus.area.valueHint")}
                    errors={form.errors(`a${i}value`)}
                    inputProps={{
                      name: `a${i}value`,
                      maxLength: RICH_MENU_RULES.uriMax,
                      defaultValue: v("value", saved?.value),
                    }}
                  />
                </div>
              </fieldset>
            );
          })}
          {rows < AREA_ROWS_MAX ? (
            <Button type="submit" name="intent" value="add-area" variant="secondary" formNoValidate>
              {t("console.richMenus.addArea")}
            </Button>
          ) : null}
        </DetailSection>

        <div>
          <Button type="submit" name="intent" value="publish" pending={pending} data-testid="rich-menu-publish">
            {t("console.richMenus.publish")}
          </Button>
        </div>
      </Form>
      {current ? (
        <HiddenForm fields={{ intent: "remove" }} className="mt-6">
          <Button type="submit" variant="secondary">
            {t("console.richMenus.remove")}
          </Button>
        </HiddenForm>
      ) : null}
    </ConsolePage>
  );
}
