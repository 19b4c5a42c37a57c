import http from "node:http";
import type { Database } from "@platform/db/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The member import's console pages (issue 35), over HTTP: admins only (a clerk and a manager get the console's
 * 403 page, the nav shows the entry to admins only); uploads refused beside their field with the values kept,
 * never a 500 (too large by Content-Length before a byte is read, no file, a bad source label, a sample sign-in
 * half given, a hash.json that is not one, a file that is not CSV); the mapping form's errors beside the column.
 */

let app: DevApp;
let base: string;
let db: Database;
let admin: TestStaff;
let manager: TestStaff;
let clerk: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "console_imports");
  base = app.base;
  db = app.running.database.db;
  const staffTesting = (await app.vite.ssrLoadModule(
    "/app/domain/staff/testing.server.ts",
  )) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
  clerk = await staffTesting.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff, lang = "zh-TW") => `han_console=${staff.token}; locale=${lang}`;
const get = (path: string, staff: TestStaff) =>
  fetch(`${base}${path}`, { headers: { cookie: cookieOf(staff) }, redirect: "manual" });

function postForm(path: string, staff: TestStaff, form: FormData, lang = "zh-TW") {
  return fetch(`${base}${path}`, {
    method: "POST",
    body: form,
    headers: { origin: base, cookie: cookieOf(staff, lang), "accept-language": lang },
    redirect: "manual",
  });
}

function formOf(fields: Record<string, string | Blob | [Blob, string]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) form.append(name, value[0], value[1]);
    else form.append(name, value);
  }
  return form;
}

const csvFile = (text: string, name = "members.csv"): [Blob, string] => [new Blob([text], { type: "text/csv" }), name];
const jsonFile = (value: unknown, name: string): [Blob, string] => [
  new Blob([JSON.stringify(value)], { type: "application/json" }),
  name,
];

describe("import pages: who may", () => {
  it("answers a clerk and a manager with the console's 403 page, an admin with the pages", async () => {
    for (const staff of [clerk, manager]) {
      for (const path of ["/admin/imports", "/admin/imports/csv", "/admin/imports/firebase"]) {
        const response = await get(path, staff);
        expect(response.status, path).toBe(403);
      }
      const post = await postForm(
        "/admin/imports/csv",
        staff,
        formOf({ source: "shopline", file: csvFile("a,b\n1,2\n") }),
      );
      expect(post.status).toBe(403);
      const download = await get("/admin/imports/00000000-0000-4000-8000-000000000000/rejected.csv", staff);
      expect(download.status).toBe(403);
      expect(download.headers.get("content-type")).toContain("text/html");
    }
    const csv = await get("/admin/imports/csv", admin);
    expect(csv.status).toBe(200);
    const html = await csv.text();
    expect(html).toContain("匯入 CSV");
    expect(html).toContain('href="/admin/imports"');
    expect(html).toContain("匯入會員");
    expect((await get("/admin/imports/firebase", admin)).status).toBe(200);
  });

  it("shows the nav entry to admins only", async () => {
    const clerkHome = await (await get("/admin/counter", clerk)).text();
    expect(clerkHome).not.toContain('href="/admin/imports"');
  });
});

/** A POST whose Content-Length says 200 MB: the page answers before reading it. */
function postClaimingSize(path: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const boundary = "----import-test";
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          origin: base,
          cookie: cookieOf(admin),
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(bytes),
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => reject(error));
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="source"\r\n\r\nshopline\r\n`);
    // The rest is never sent: the answer must not wait for it.
  });
}

describe("import pages: uploads refused beside their field", () => {
  it("refuses a file over 100 MB by its Content-Length, before reading it, with the command to use", async () => {
    const csv = await postClaimingSize("/admin/imports/csv", 200 * 1024 * 1024);
    expect(csv.status).toBe(413);
    expect(csv.body).toContain("檔案超過 100 MB；更大的檔案請用 npm run import:csv");
    const firebase = await postClaimingSize("/admin/imports/firebase", 400 * 1024 * 1024);
    expect(firebase.status).toBe(413);
    expect(firebase.body).toContain("npm run import:firebase");
  });

  it("refuses a bad source label and a missing file, keeping what was typed", async () => {
    const bad = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({ source: "Shop Line!", encoding: "big5", file: csvFile("a\n1\n") }),
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("請用 2–32 個英文小寫字母、數字或「-」");
    expect(html).toContain('value="Shop Line!"');
    const reserved = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({ source: "firebase", file: csvFile("a\n1\n") }),
    );
    expect(reserved.status).toBe(400);
    expect(await reserved.text()).toContain("保留給原系統匯入");
    const none = await postForm("/admin/imports/csv", admin, formOf({ source: "pos", file: [new Blob([]), ""] }));
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toContain("請選擇檔案");
    expect(noneHtml).toContain('value="pos"');
    const english = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({ source: "-x", file: csvFile("a\n1\n") }),
      "en",
    );
    expect(english.status).toBe(400);
    expect(await english.text()).toContain("Use 2–32 lowercase letters");
  });

  it("refuses a half sample sign-in and a hash.json that is not one", async () => {
    const users = jsonFile({ users: [] }, "users.json");
    const members = jsonFile([], "memberList.json");
    const half = await postForm(
      "/admin/imports/firebase",
      admin,
      formOf({ users, members, sampleIdentifier: "0912345678", samplePassword: "" }),
    );
    expect(half.status).toBe(400);
    const halfHtml = await half.text();
    expect(halfHtml).toContain("請輸入密碼");
    expect(halfHtml).toContain('value="0912345678"');
    const hash = await postForm(
      "/admin/imports/firebase",
      admin,
      formOf({ users, members, hashConfig: jsonFile({ nope: 1 }, "hash.json") }),
    );
    expect(hash.status).toBe(400);
    expect(await hash.text()).toContain("這不是 Firebase 的密碼雜湊參數");
    const missing = await postForm("/admin/imports/firebase", admin, formOf({ users }));
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("請選擇檔案");
  });
});

const runIdOf = (response: Response) => {
  const id = /\/admin\/imports\/([0-9a-f-]{36})$/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
  expect(id, response.headers.get("location") ?? "no location").not.toBe("");
  return id;
};

function postFields(path: string, staff: TestStaff, fields: Record<string, string>, lang = "zh-TW") {
  return fetch(`${base}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie: cookieOf(staff, lang), "accept-language": lang },
    redirect: "manual",
  });
}

describe("import pages: a CSV from upload to result", () => {
  const CSV = "會員編號,姓名,手機,點數\nA1,王小明,0912345678,120\nA2,李小華,12345,5\nA3,陳大文,0987654321,0\n";

  it("refuses a file that is not CSV beside the file field, keeping the source", async () => {
    const binary = new Uint8Array(2048).map((_, i) => (i * 37) % 256);
    const response = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({ source: "shopline", file: [new Blob([binary]), "members.csv"] }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("這不是 CSV 檔案");
    expect(html).toContain('value="shopline"');
  });

  it("maps the columns (errors beside the select), dry runs, imports and offers the rejected rows", async () => {
    const staged = await postForm("/admin/imports/csv", admin, formOf({ source: "shopline", file: csvFile(CSV) }));
    expect(staged.status, await staged.clone().text()).toBe(302);
    const runId = runIdOf(staged);
    const page = await (await get(`/admin/imports/${runId}`, admin)).text();
    expect(page).toContain("對應欄位");
    expect(page).toContain("欄位「手機」");
    expect(page).toContain('data-testid="import-preview-row"');
    expect(page).toContain("王小明");
    expect(page).toMatch(/data-testid="import-run-encoding"[\s\S]*?UTF-8・自動判斷/);

    // The phone chosen twice: told beside the second column, the choices kept.
    const twice = await postFields(`/admin/imports/${runId}`, admin, {
      intent: "check",
      col0: "externalId",
      col1: "phoneNumber",
      col2: "phoneNumber",
      col3: "points",
    });
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain("「手機號碼」只能對應一個欄位");
    const noPhone = await postFields(`/admin/imports/${runId}`, admin, { intent: "check", col0: "externalId" });
    expect(noPhone.status).toBe(400);
    expect(await noPhone.text()).toContain("請指定哪個欄位是手機號碼");

    const check = await postFields(`/admin/imports/${runId}`, admin, {
      intent: "check",
      col0: "externalId",
      col1: "nameZh",
      col2: "phoneNumber",
      col3: "points",
    });
    expect(check.status, await check.clone().text()).toBe(302);
    const report = await (await get(`/admin/imports/${runId}`, admin)).text();
    expect(report).toContain("試算結果");
    expect(report).toContain('data-testid="import-report-create"');
    expect(report).toContain("手機號碼格式不正確");
    expect(report).toContain('data-testid="import-start"');

    const start = await postFields(`/admin/imports/${runId}`, admin, { intent: "start" });
    expect(start.status, await start.clone().text()).toBe(302);
    // The job applies it in the background: the page shows the progress, then the result (no timing asserted).
    let html = "";
    for (let i = 0; i < 120; i++) {
      html = await (await get(`/admin/imports/${runId}`, admin)).text();
      if (html.includes('data-testid="import-result"')) break;
      expect(html).toContain('role="progressbar"');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(html).toContain('data-testid="import-result"');
    expect(html).toContain("下載被拒絕的資料列（CSV）");

    const download = await get(`/admin/imports/${runId}/rejected.csv`, admin);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="import-shopline-/);
    const csv = await download.text();
    expect(csv).toContain("12345");
    expect(csv).toContain("手機號碼格式不正確");
    expect(csv).not.toContain("王小明");

    const list = await (await get("/admin/imports", admin)).text();
    expect(list).toContain(`/admin/imports/${runId}`);
    expect(list).toContain("shopline");
  }, 120_000);

  it("reads Excel's Unicode text (UTF-16 with its BOM) and a chosen Big5, and says which encoding it read", async () => {
    const iconv = (await import("iconv-lite")).default;
    const unicodeText = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(CSV.replace(/,/g, "\t"), "utf16le")]);
    const utf16 = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({
        source: "excel-unicode",
        encoding: "big5",
        file: [new Blob([new Uint8Array(unicodeText)]), "members.txt"],
      }),
    );
    expect(utf16.status, await utf16.clone().text()).toBe(302);
    const page = await (await get(`/admin/imports/${runIdOf(utf16)}`, admin)).text();
    expect(page).toContain("欄位「手機」");
    expect(page).toContain("王小明");
    expect(page).toMatch(/data-testid="import-run-encoding"[\s\S]*?UTF-16 LE（含 BOM）・自動判斷/);

    const big5 = await postForm(
      "/admin/imports/csv",
      admin,
      formOf({
        source: "old-pos",
        encoding: "big5",
        file: [new Blob([new Uint8Array(iconv.encode(CSV, "big5"))]), "members.csv"],
      }),
    );
    expect(big5.status, await big5.clone().text()).toBe(302);
    const chosen = await (await get(`/admin/imports/${runIdOf(big5)}`, admin)).text();
    expect(chosen).toContain("王小明");
    expect(chosen).toMatch(/data-testid="import-run-encoding"[\s\S]*?Big5・上傳時指定/);
  });

  it("answers an unknown run with the console's 404", async () => {
    expect((await get("/admin/imports/00000000-0000-4000-8000-000000000000", admin)).status).toBe(404);
    expect((await get("/admin/imports/not-a-run", admin)).status).toBe(404);
  });
});

describe("import pages: the original system's files", () => {
  it("refuses a users.json that is not JSON beside its field", async () => {
    const response = await postForm(
      "/admin/imports/firebase",
      admin,
      formOf({
        users: [new Blob(["this is not json"]), "users.json"],
        members: jsonFile([{ documentId: "d1", phoneNumber: "0911111111" }], "memberList.json"),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("這不是 JSON 檔案");
  });
});
