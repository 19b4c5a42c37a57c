import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Never a 500 for bad input (issue 11, item 6). Every route of app/routes.ts whose module exports an
 * action gets each bad body, logged out and as a member, as a document POST (no JavaScript) and as
 * React Router's data request: a JSON or text/plain body (415), a broken multipart body (400) and a
 * form whose every field carries NUL bytes. None may answer 5xx, and a refused body shows the
 * page's "could not be processed" view, not the server-error page. A route added later is covered
 * without touching this file.
 */
const HOOKS_SECRET = "bad-input-test-hooks-secret-0123456789";

/** Real values for route parameters, so an action is reached instead of a 404 for an unknown id. */
const SAMPLE_PARAMS: Record<string, string> = {
  "material-detail/:id": "kyoto-mist-porcelain",
  "store-detail/:id": "xinyi-flagship",
};

const FORM = "application/x-www-form-urlencoded";
const BOUNDARY = "----bad-input-boundary";
const NUL_FIELDS = [
  "intent",
  "method",
  "redirectTo",
  "phone",
  "email",
  "password",
  "confirmPassword",
  "code",
  "nameZh",
  "nameEn",
  "companyName",
  "street",
  "city",
  "district",
  "gender",
  "birthday",
  "taxIdNumber",
  "einvoiceCarrier",
  "recipient",
  "idToken",
  "agree",
];

const BAD_BODIES: { name: string; contentType: string; body: string }[] = [
  { name: "a JSON body", contentType: "application/json", body: JSON.stringify({ nameZh: "王小明", intent: "save" }) },
  { name: "a text/plain body", contentType: "text/plain;charset=UTF-8", body: "nameZh=王小明\r\nintent=save" },
  {
    name: "a broken multipart body",
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="nameZh"\r\n\r\n王小明\r\n--${BOUNDARY}\r\nContent-Disp`,
  },
  {
    name: "a form with NUL bytes in every field",
    contentType: FORM,
    body: new URLSearchParams(NUL_FIELDS.map((field) => [field, `\u0000${field}\u0000值\u0000`])).toString(),
  },
];

type ActionRoute = { pattern: string; file: string; index: boolean };

let app: DevApp;
let base: string;
let memberCookie: string;
let routes: ActionRoute[];

/** Every route of app/routes.ts, with its full path pattern. */
function flatten(entries: RouteConfigEntry[], parent = ""): ActionRoute[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own = { pattern, file: entry.file, index: Boolean(entry.index) };
    return [own, ...flatten(entry.children ?? [], pattern)];
  });
}

function pathFor(route: ActionRoute): string {
  const filled = SAMPLE_PARAMS[route.pattern]
    ? route.pattern.replace(/:[^/]+/, SAMPLE_PARAMS[route.pattern] as string)
    : route.pattern.replace(/:[^/]+/g, "unknown").replace("*", "");
  return `/${filled}`;
}

/** The document URL and React Router's data-request URL of a submission to the route. */
function submissionUrls(route: ActionRoute): string[] {
  const pathname = pathFor(route);
  const query = route.index ? "?index" : "";
  const data = pathname.endsWith("/") ? `${pathname}_.data` : `${pathname}.data`;
  return [`${pathname}${query}`, `${data}${query}`];
}

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function memberSession(phoneNumber: string): Promise<string> {
  const { userId } = (await hook("/members", { phoneNumber, name: "測試會員" })) as { userId: string };
  const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
  return setCookie.map((c) => c.split(";")[0]).join("; ");
}

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET, SEED_DEMO_CONTENT: "true" }, "bad_input");
  base = app.base;
  const vite = app.vite;
  const routeConfig = (await vite.ssrLoadModule("/app/routes.ts")) as { default: RouteConfigEntry[] };
  routes = [];
  for (const route of flatten(routeConfig.default)) {
    const module = (await vite.ssrLoadModule(`/app/${route.file}`)) as { action?: unknown };
    if (typeof module.action === "function") routes.push(route);
  }
  memberCookie = await memberSession("+886912345001");
});

afterAll(async () => {
  await app?.stop();
});

describe("bad request bodies", () => {
  it("finds the routes with an action in app/routes.ts", () => {
    const patterns = routes.map((r) => r.pattern);
    // A sample of what must be there; the list itself comes from the route modules.
    for (const expected of ["member-login", "member-center", "member-center/edit-info", "signup/create-member-info"]) {
      expect(patterns).toContain(expected);
    }
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });

  it("never answer 5xx on any route with an action, logged out or as a member", async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const url of submissionUrls(route)) {
        for (const cookie of ["", memberCookie]) {
          for (const bad of BAD_BODIES) {
            const response = await fetch(`${base}${url}`, {
              method: "POST",
              headers: { origin: base, "content-type": bad.contentType, ...(cookie ? { cookie } : {}) },
              body: bad.body,
              redirect: "manual",
            });
            const text = await response.text();
            const who = cookie ? "member" : "visitor";
            if (response.status >= 500) failures.push(`${response.status} ${url} (${who}, ${bad.name})`);
            const html = (response.headers.get("content-type") ?? "").includes("text/html");
            if (html && text.includes('data-testid="server-error"')) {
              failures.push(`${response.status} ${url} (${who}, ${bad.name}) shows the server-error page`);
            }
            // A refused body (not a form) shows the "could not be processed" view; a form with NUL
            // bytes is an ordinary form (its values cleaned) and may get field errors instead.
            const refused = response.status === 400 || response.status === 415;
            if (html && refused && bad.contentType !== FORM && !text.includes('data-testid="bad-request"')) {
              failures.push(`${response.status} ${url} (${who}, ${bad.name}) without the bad-request view`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers a JSON, text/plain or broken multipart login with the page's bad-request view", async () => {
    for (const bad of BAD_BODIES.slice(0, 3)) {
      const response = await fetch(`${base}/member-login`, {
        method: "POST",
        headers: { origin: base, "content-type": bad.contentType },
        body: bad.body,
      });
      expect(response.status, bad.name).toBe(bad.name === "a broken multipart body" ? 400 : 415);
      const html = await response.text();
      expect(html).toContain("無法處理這個請求");
      expect(html).not.toContain(`data-testid="server-error"`);
      // The site's frame (header, navigation) is still there: the layout's error view.
      expect(html).toContain('href="/member-center"');
    }
  });

  it("keeps a member's name, company and street typed with NUL bytes, without the NUL bytes", async () => {
    const cookie = await memberSession("+886912345002");
    const form = new URLSearchParams({
      nameZh: "王\u0000小明",
      gender: "female",
      companyName: "漢\u0000生活設計",
      city: "臺北市",
      district: "信義區",
      street: "信義路五段\u00007號",
    });
    const saved = await fetch(`${base}/member-center/edit-info`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded", cookie },
      body: form,
      redirect: "manual",
    });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect(saved.headers.get("location")).toBe("/member-center/edit-info");
    const page = await (await fetch(`${base}/member-center/edit-info`, { headers: { cookie } })).text();
    expect(page).toContain('value="王小明"');
    expect(page).toContain('value="漢生活設計"');
    expect(page).toContain('value="信義路五段7號"');
  });
});
