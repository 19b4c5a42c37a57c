import type { ErrorCodeDoc } from "./errors";

/**
 * The human-readable reference of the POS API at /api/v1/docs, rendered on the server from the same
 * OpenAPI document the tills can download (so the two never disagree). One self-contained HTML page:
 * no scripts, no external styles or fonts (the CSP allows neither), readable without JavaScript.
 *
 * Languages: zh-TW first (the page's language), each text followed by its English counterpart marked
 * `lang="en"` — integrators in Taiwan read either, and the codes and examples are the same for both.
 */
type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  "x-zh-TW": { summary: string; description: string };
  parameters?: { name: string; in: string; required?: boolean; description?: string; example?: unknown }[];
  requestBody?: { content: { "application/json": { example: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { example?: unknown } } }>;
};

const html = (value: unknown): string => String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `
:root{color-scheme:light;--paper:#faf8f4;--sand:#f1ece4;--line:#d9d1c5;--ink:#1f1c18;--muted:#5e574e;--brand:#7d5236}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:16px/1.7 "Noto Sans TC","PingFang TC","Microsoft JhengHei",system-ui,sans-serif}
a{color:var(--brand)}a:focus-visible,pre:focus-visible,.table:focus-visible{outline:2px solid var(--brand);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1.25rem}
header{padding-top:2.5rem}
h1{font-size:1.9rem;line-height:1.3;margin:0 0 .5rem}
h2{font-size:1.4rem;margin:3rem 0 .75rem;padding-top:1rem;border-top:1px solid var(--line)}
h3{font-size:1.15rem;margin:2.25rem 0 .5rem}
h4{font-size:1rem;margin:1.25rem 0 .25rem}
.en{color:var(--muted)}
h1 .en,h2 .en,h3 .en{font-weight:400}
nav ol{padding-left:1.25rem;columns:2 16rem}
code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.88rem}
:not(pre)>code{background:var(--sand);padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}
pre{background:#2a2622;color:#f6f1ea;padding:1rem;border-radius:8px;overflow-x:auto;line-height:1.5}
.endpoint{display:inline-block;max-width:100%;overflow-wrap:anywhere;background:var(--sand);border:1px solid var(--line);border-radius:6px;padding:.15rem .6rem;font-weight:600}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.95rem}
th,td{border-bottom:1px solid var(--line);padding:.45rem .5rem;text-align:left;vertical-align:top}
th{background:var(--sand)}
td code{white-space:nowrap}
td.wide{min-width:14rem}
footer{padding:3rem 1.25rem;color:var(--muted)}
`;

function both(zh: string, en: string, tag: "p" | "span" = "p"): string {
  return tag === "p"
    ? `<p>${html(zh)}</p><p class="en" lang="en">${html(en)}</p>`
    : `${html(zh)} <span class="en" lang="en">${html(en)}</span>`;
}

function pretty(value: unknown): string {
  return html(JSON.stringify(value, null, 2));
}

function curl(method: string, path: string, example: Operation): string {
  const query = (example.parameters ?? []).find((p) => p.in === "query");
  let url = path;
  for (const p of example.parameters ?? []) {
    if (p.in === "path") url = url.replace(`{${p.name}}`, String(p.example));
  }
  if (query) url += `?${query.name}=${encodeURIComponent(String(query.example))}`;
  const lines = [`curl -X ${method.toUpperCase()} "$BASE/api/v1${url}" \\`, `  -H "Authorization: Bearer $KEY"`];
  const bodyExample = example.requestBody?.content["application/json"].example;
  if (bodyExample !== undefined) {
    lines[lines.length - 1] += " \\";
    lines.push(`  -H "Content-Type: application/json" \\`, `  -H "Idempotency-Key: $(uuidgen)" \\`);
    lines.push(`  -d '${JSON.stringify(bodyExample)}'`);
  }
  return html(lines.join("\n"));
}

function renderOperation(method: string, path: string, op: Operation, codes: ErrorCodeDoc[]): string {
  const zh = op["x-zh-TW"];
  const params = op.parameters ?? [];
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${html(p.name)}</code></td><td>${html(p.in)}</td><td>${p.required ? '必填 <span lang="en">required</span>' : '選填 <span lang="en">optional</span>'}</td><td class="wide">${html(p.description ?? "")}</td><td><code>${html(p.example ?? "")}</code></td></tr>`,
    )
    .join("");
  const responses = Object.entries(op.responses);
  const ok = responses.filter(([status]) => status.startsWith("2"));
  const failing = responses.filter(([status]) => !status.startsWith("2"));
  return `<section aria-labelledby="${html(op.operationId)}">
<h3 id="${html(op.operationId)}">${both(zh.summary, op.summary, "span")}</h3>
<p><span class="endpoint">${html(method.toUpperCase())} /api/v1${html(path)}</span></p>
${both(zh.description, op.description)}
${
  params.length
    ? `<h4>參數 <span class="en" lang="en">Parameters</span></h4><div class="table" tabindex="0"><table><thead><tr><th scope="col">名稱 <span lang="en">Name</span></th><th scope="col">位置 <span lang="en">In</span></th><th scope="col">必填 <span lang="en">Required</span></th><th scope="col">說明 <span lang="en">Description</span></th><th scope="col">範例 <span lang="en">Example</span></th></tr></thead><tbody>${paramRows}</tbody></table></div>`
    : ""
}
<h4>請求範例 <span class="en" lang="en">Request example</span></h4>
<pre tabindex="0"><code>${curl(method, path, op)}</code></pre>
${ok
  .map(
    ([status, r]) =>
      `<h4>回應 <span class="en" lang="en">Response</span> <code>${html(status)}</code> — <span lang="en">${html(r.description)}</span></h4><pre tabindex="0"><code>${pretty(r.content?.["application/json"].example)}</code></pre>`,
  )
  .join("\n")}
<h4>錯誤 <span class="en" lang="en">Errors</span></h4>
<ul>${failing
    .map(
      ([status]) =>
        `<li><code>${html(status)}</code>: ${codes
          .filter((c) => String(c.status) === status)
          .map((c) => `<a href="#error-${html(c.code)}"><code>${html(c.code)}</code></a>`)
          .join(", ")}</li>`,
    )
    .join("")}</ul>
</section>`;
}

export function renderApiReference(doc: Json): string {
  const info = doc.info as {
    title: string;
    version: string;
    description: string;
    "x-zh-TW": { title: string; description: string };
  };
  const codes = doc["x-error-codes"] as ErrorCodeDoc[];
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const flow = ["lookupMember", "recordPurchase", "refundPurchase", "redeemCoupon"]
    .map((id) => operations.find((o) => o.op.operationId === id))
    .filter((o) => o !== undefined);
  return `<!doctype html>
<html lang="zh-Hant-TW">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(info["x-zh-TW"].title)} · ${html(info.title)}</title>
<meta name="description" content="${html(info["x-zh-TW"].description)}">
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">跳到主要內容 <span lang="en">Skip to content</span></a>
<header>
<h1>${html(info["x-zh-TW"].title)} <span class="en" lang="en">${html(info.title)}</span></h1>
<p>版本 <span lang="en">Version</span> ${html(info.version)} · <a href="/api/v1/openapi.json">OpenAPI 3.1 (JSON)</a></p>
</header>
<main id="main">
${both(info["x-zh-TW"].description, info.description)}
<nav aria-label="目錄 Contents"><ol>
<li><a href="#auth">驗證 <span lang="en">Authentication</span></a></li>
<li><a href="#idempotency">冪等與重試 <span lang="en">Idempotency and retries</span></a></li>
<li><a href="#errors">錯誤代碼 <span lang="en">Errors</span></a></li>
${operations.map(({ op }) => `<li><a href="#${html(op.operationId)}">${both(op["x-zh-TW"].summary, op.summary, "span")}</a></li>`).join("\n")}
<li><a href="#session">完整流程範例 <span lang="en">A till's session</span></a></li>
</ol></nav>

<h2 id="auth">驗證 <span class="en" lang="en">Authentication</span></h2>
${both(
  "每個請求（openapi.json 與本頁除外）都要帶 Authorization: Bearer hlpos_… 標頭。金鑰屬於一家門市：消費登錄在該門市、優惠券在該門市核銷、退貨只找得到該門市的消費。金鑰只在建立時顯示一次，系統只保存雜湊，可隨時撤銷。每把金鑰每分鐘最多 600 次請求，超過會收到 429 rate_limited 與 Retry-After 標頭。",
  "Every request (except openapi.json and this page) sends Authorization: Bearer hlpos_…. A key belongs to one store: purchases are booked for that store, coupons are used there, and refunds only find that store's purchases. A key is shown once when created, stored only as a hash, and can be revoked. At most 600 requests a minute per key; above that, 429 rate_limited with a Retry-After header.",
)}
<pre tabindex="0"><code>Authorization: Bearer hlpos_3kT9…</code></pre>

<h2 id="idempotency">冪等與重試 <span class="en" lang="en">Idempotency and retries</span></h2>
${both(
  "每個 POST 都必須以 Content-Type: application/json 傳送，並帶 Idempotency-Key 標頭（1–200 個可見 ASCII 字元，建議用 UUID）。網路中斷或逾時時，請以相同的金鑰與相同內容重送：會得到第一次的回應（標頭 Idempotent-Replayed: true），不會重複入帳。相同金鑰但內容不同會得到 409 idempotency_key_reused；第一次請求仍在處理時會得到 409 request_in_progress，請稍候再重送。內容上限 32 KB。",
  "Every POST is sent as Content-Type: application/json with an Idempotency-Key header (1–200 visible ASCII characters; a UUID is a good choice). After a timeout or a dropped connection, send the same request with the same key: you get the first answer again (header Idempotent-Replayed: true) and nothing is booked twice. The same key with a different body is 409 idempotency_key_reused; while the first request is still running, 409 request_in_progress — wait a moment and send it again. Bodies are at most 32 KB.",
)}

<h2 id="errors">錯誤代碼 <span class="en" lang="en">Errors</span></h2>
${both(
  "錯誤一律以 JSON 回覆，code 是穩定的代碼（程式請依 code 判斷），message 是給人看的說明。",
  "Errors are JSON with a stable code (branch on it) and a readable message.",
)}
<pre tabindex="0"><code>${pretty({ error: { code: "refund_exceeds_purchase", message: "Refunds would exceed the purchase" } })}</code></pre>
<div class="table" tabindex="0"><table>
<thead><tr><th scope="col">狀態 <span lang="en">Status</span></th><th scope="col">代碼 <span lang="en">Code</span></th><th scope="col">說明</th><th scope="col" lang="en">Meaning</th></tr></thead>
<tbody>
${codes.map((c) => `<tr id="error-${html(c.code)}"><td>${c.status}</td><td><code>${html(c.code)}</code></td><td class="wide">${html(c.zh)}</td><td class="wide" lang="en">${html(c.en)}</td></tr>`).join("\n")}
</tbody></table></div>

<h2 id="endpoints">端點 <span class="en" lang="en">Endpoints</span></h2>
${operations.map(({ path, method, op }) => renderOperation(method, path, op, codes)).join("\n")}

<h2 id="session">完整流程範例 <span class="en" lang="en">A till's session</span></h2>
${both(
  "會員出示會員卡 QR 碼 → 查詢會員 → 登錄消費（記下 purchaseId）→ 部分退貨 → 核銷會員出示的優惠券。",
  "The member shows the card QR → look the member up → record the purchase (keep purchaseId) → refund part of it → use the coupon the member shows.",
)}
<pre tabindex="0"><code>BASE=https://example.com; KEY=hlpos_…
${flow.map(({ path, method, op }) => curl(method, path, op)).join("\n\n")}</code></pre>
</main>
<footer><p>${html(info["x-zh-TW"].title)} ${html(info.version)} · <span lang="en">generated from</span> <a href="/api/v1/openapi.json">openapi.json</a></p></footer>
</body>
</html>`;
}
