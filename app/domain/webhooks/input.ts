import { WEBHOOK_EVENTS, WEBHOOK_SCOPES, type WebhookEvent, type WebhookScope } from "@platform/db/schema";
import { z } from "zod";

/** The endpoint form (ADR 054), checked before any work: problems per field as codes the page words. */
export type EndpointInput = { url: string; description: string; events: WebhookEvent[]; scopes: WebhookScope[] };
export type EndpointProblems = Partial<Record<"url" | "description" | "events" | "scopes", string[]>>;

export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 200;

const schema = z.object({
  url: z.string().trim().min(1, "required").max(URL_MAX, "tooLong"),
  description: z.string().trim().max(DESCRIPTION_MAX, "tooLong"),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { message: "unknown" }))
    .min(1, "required")
    .max(WEBHOOK_EVENTS.length),
  scopes: z.array(z.enum(WEBHOOK_SCOPES, { message: "unknown" })).max(WEBHOOK_SCOPES.length),
});

export function parseEndpointForm(
  form: FormData,
): { ok: true; value: EndpointInput } | { ok: false; problems: EndpointProblems } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const list = (name: string) => [...new Set(form.getAll(name).filter((v): v is string => typeof v === "string"))];
  const parsed = schema.safeParse({
    url: text("url"),
    description: text("description"),
    events: list("events"),
    scopes: list("scopes"),
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems: EndpointProblems = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as keyof EndpointProblems;
    problems[field] = [
      ...(problems[field] ?? []),
      issue.message === "required" || issue.message === "tooLong" ? issue.message : "unknown",
    ];
  }
  return { ok: false, problems };
}
