import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ALT_PROBLEMS, altTextInput, imageView, uploadImage } from "~/domain/images/images.server";
import { MAX_IMAGE_BYTES } from "~/domain/images/limits";
import { readBodyLimited } from "~/domain/images/process.server";
import { mediaStoreFor } from "~/domain/images/storage.server";
import { isRefusal } from "~/domain/refusals";
import { consoleContext } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/upload";

/**
 * POST /admin/images/upload (ADR 028): the file itself is the body (any Content-Type: what it is is read
 * from its bytes), the alt texts are the query (`altZh`, `altEn`), read by the domain's alt text schema. Up to
 * MAX_IMAGE_BYTES: a larger Content-Length is refused (413) before the body is read, and the body is counted
 * while it streams. Answers JSON: 201 (new) or 200 (the same file was already uploaded) with the image;
 * otherwise `{ error: { code, field, message } }` with a 4xx status and a localized message (the uploader's
 * JSON, not a form's answer, but the status and message of a refusal from the refusal table all the same).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const fail = (status: number, code: string, field: string, message: string) =>
    Response.json({ error: { code, field, message } }, { status, headers: { "Cache-Control": "no-store" } });
  if (request.method !== "POST") return fail(405, "method_not_allowed", "file", "POST only");
  // A script's request: no redirect to the login page (it would read as a 200), a 403 for anyone else.
  const actor = context.get(consoleContext)?.actor;
  if (!actor || !hasPermission(actor, "catalog.edit")) {
    return fail(403, "forbidden", "file", t("console.forbidden.body"));
  }
  const query = new URL(request.url).searchParams;
  const alt = altTextInput.safeParse({
    altZh: query.get("altZh") ?? undefined,
    altEn: query.get("altEn") ?? undefined,
  });
  if (!alt.success) {
    const issue = alt.error.issues[0];
    const problem = ALT_PROBLEMS[issue?.message === "too_long" ? "too_long" : "required"];
    return fail(400, problem.code, String(issue?.path[0] ?? "altZh"), t(problem.message));
  }
  try {
    const bytes = await readBodyLimited(request.body, MAX_IMAGE_BYTES);
    const { image, created } = await uploadImage(
      app.db,
      actor,
      { bytes, alt: alt.data },
      mediaStoreFor(app.config.media),
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return Response.json({ image: imageView(image), created }, { status: created ? 201 : 200 });
  } catch (error) {
    if (isRefusal(error, "images")) return fail(error.status, error.code, "file", t(error.messageKey));
    throw error;
  }
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
