import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Writable } from "node:stream";
import { type ReactNode, Suspense, use } from "react";
import { describe, expect, it } from "vitest";
import { stringChunksPatch } from "./react-dom-string-chunks";
import { applyPatches } from "./server-patches";

type RenderToPipeableStream = typeof import("react-dom/server").renderToPipeableStream;

const require = createRequire(import.meta.url);
const file = path.join(
  path.dirname(require.resolve("react-dom/package.json")),
  "cjs/react-dom-server.node.production.js",
);
const fail = (message: string): never => {
  throw new Error(message);
};

/** The file as published, or as the server build patches it, loaded as its own module (one React for both). */
function load(patched: boolean): RenderToPipeableStream {
  const source = readFileSync(file, "utf8");
  const code = patched ? (applyPatches([stringChunksPatch], source, file, fail)?.code ?? fail("no patch")) : source;
  const module = { exports: {} as { renderToPipeableStream: RenderToPipeableStream } };
  new Function("exports", "require", "module", "__filename", "__dirname", code)(
    module.exports,
    createRequire(file),
    module,
    file,
    path.dirname(file),
  );
  return module.exports.renderToPipeableStream;
}

const published = load(false);
const patched = load(true);

/**
 * Everything `render` wrote, as bytes, and each write's size. `started` resolves once the shell is written
 * (the point where a second response can start while this one waits for its Suspense boundaries).
 */
function render(renderToPipeableStream: RenderToPipeableStream, node: ReactNode) {
  const writes: Buffer[] = [];
  let shell!: () => void;
  const started = new Promise<void>((resolve) => {
    shell = resolve;
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(Buffer.from(chunk));
        callback();
      },
      final(callback) {
        resolve(Buffer.concat(writes));
        callback();
      },
    });
    const { pipe } = renderToPipeableStream(node, {
      nonce: "n0nce",
      bootstrapModules: ["/assets/entry.js"],
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        pipe(sink);
        shell();
      },
      onShellError: reject,
      onError: () => undefined,
    });
  });
  return { started, done, writes };
}

/** A value that arrives later: a Suspense boundary around `Later` resolves in a later flush. */
function later<T>(value: T) {
  let resolve!: () => void;
  const promise = new Promise<T>((r) => {
    resolve = () => r(value);
  });
  return { promise, resolve };
}

/** Text that suspends until `promise` resolves. (Only text: the tests' React is the development build, which
 * cannot create elements while the production renderer renders, so the page's elements are made beforehand.) */
function Later({ promise }: { promise: Promise<string> }) {
  return use(promise);
}

const LONG = "建材".repeat(1500); // 3,000 characters, 9,000 bytes: past React's 4 kB buffer in one piece
const EMOJI = "🏠🪵🧱 (surrogate pairs) & <escaped> \"quotes\" 'apostrophes'";

/** A page with most of what React writes: a document, hoisted head tags, attributes, styles, text to escape. */
function page(rows: number, promise?: Promise<string>): ReactNode {
  return (
    <html lang="zh-Hant-TW">
      <head>
        <meta charSet="utf-8" />
        <title>會員中心 · 點數</title>
        <link rel="stylesheet" href="/assets/app.css" precedence="default" />
      </head>
      <body className="min-h-dvh bg-paper text-ink">
        <header>
          <nav aria-label="主選單">
            <a href="/" data-discover="true">
              首頁
            </a>
          </nav>
        </header>
        <main id="main" style={{ paddingTop: 12, lineHeight: 1.5, WebkitLineClamp: 2 }}>
          <h1>林雅婷，您好</h1>
          <p>{EMOJI}</p>
          <p title={EMOJI}>{LONG}</p>
          <ul>
            {Array.from({ length: rows }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
              <li key={i} className={`row row-${i}`} data-index={i} hidden={i % 7 === 0}>
                <time dateTime="2026-11-27">2026/11/27</time> {i} 點 {i % 3 === 0 ? <strong>+{i * 10}</strong> : null}
                <input type="checkbox" defaultChecked={i % 2 === 0} aria-label={`第 ${i} 筆`} />
              </li>
            ))}
          </ul>
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 2 L22 12 L12 22 L2 12 Z" strokeWidth={2} />
          </svg>
          <textarea defaultValue={"第一行\n第二行"} />
          <select defaultValue="b">
            <option value="a">A</option>
            <option value="b">B</option>
          </select>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: what the test writes */}
          <div dangerouslySetInnerHTML={{ __html: "<b>原樣</b>" }} />
          {promise ? (
            <Suspense fallback={<p className="loading">載入中…</p>}>
              <p className="later">
                <Later promise={promise} />
              </p>
            </Suspense>
          ) : null}
        </main>
      </body>
    </html>
  );
}

describe("React's server renderer writing whole strings (server build)", () => {
  it("patches react-dom's Node server file, and fails the build when the text changed", () => {
    const source = readFileSync(file, "utf8");
    const out = applyPatches([stringChunksPatch], source, file, fail);
    expect(out?.applied).toEqual([stringChunksPatch]);
    expect(out?.code).toContain("function hanWriteChunkBytes(destination, chunk) {");
    expect(out?.code).toContain("function hanCompleteWritingBytes(destination) {");
    expect(() => applyPatches([stringChunksPatch], "function other() {}", file, fail)).toThrow(/changed/);
    // Its find text is there, but another text it replaces is not.
    const missing = source.replace("function completeWriting(destination) {", "function completeWriting(d) {");
    expect(() => applyPatches([stringChunksPatch], missing, file, fail)).toThrow(/changed/);
    expect(applyPatches([stringChunksPatch], "export const x = 1;", "/app/other.js", fail)).toBeNull();
  });

  it.each([0, 1, 40, 400])("writes the same bytes as published for a page of %i rows", async (rows) => {
    const theirs = await render(published, page(rows)).done;
    const ours = await render(patched, page(rows)).done;
    expect(theirs.length).toBeGreaterThan(9_000);
    expect(ours.equals(theirs)).toBe(true);
  });

  it("writes fewer, larger pieces, each of about 4 kB of text at most", async () => {
    const theirs = render(published, page(400));
    const ours = render(patched, page(400));
    const [html] = await Promise.all([ours.done, theirs.done]);
    expect(html.length).toBeGreaterThan(40_000);
    expect(ours.writes.length).toBeLessThan(theirs.writes.length);
    // The text so far is written once it passes 4,096 characters: the last piece added may be long (LONG), and a
    // character is at most 3 bytes in UTF-8.
    expect(Math.max(...ours.writes.map((w) => w.length))).toBeLessThanOrEqual(3 * (4096 + LONG.length));
  });

  it("writes a boundary that resolves later in its own flush, the same bytes", async () => {
    const outputs: Buffer[] = [];
    for (const renderer of [published, patched]) {
      const data = later("稍後送達的內容");
      const { started, done, writes } = render(renderer, page(40, data.promise));
      await started;
      await new Promise((resolve) => setImmediate(resolve));
      const shellWrites = writes.length;
      expect(Buffer.concat(writes).toString()).toContain("載入中…");
      data.resolve();
      outputs.push(await done);
      expect(writes.length).toBeGreaterThan(shellWrites);
    }
    expect(outputs[1]?.equals(outputs[0] as Buffer)).toBe(true);
    expect(outputs[1]?.toString()).toContain("稍後送達的內容");
  });

  it("keeps two responses apart when one is written while the other waits", async () => {
    const expected = {
      a: await (async () => {
        const data = later("A 的資料");
        const r = render(published, page(30, data.promise));
        await r.started;
        data.resolve();
        return r.done;
      })(),
      b: await render(published, page(50)).done,
    };
    const data = later("A 的資料");
    const a = render(patched, page(30, data.promise));
    await a.started;
    const b = await render(patched, page(50)).done;
    data.resolve();
    expect((await a.done).equals(expected.a)).toBe(true);
    expect(b.equals(expected.b)).toBe(true);
  });
});
