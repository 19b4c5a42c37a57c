import type { SourcePatch } from "./server-patches.ts";

/**
 * React's server renderer (react-dom/server for Node) writing a page's HTML as one string per 4 kB instead of
 * encoding each piece as it goes, in the server build (ADR 031, "Later (2026-11-27, sixth session)").
 *
 * Fizz writes a page as thousands of small pieces: `<div`, ` class="`, the class names, `">`, a text, … Its
 * Node stream config encodes each one into a 4 kB buffer as it is written (`writeChunk`: a subarray, a
 * `TextEncoder.encodeInto` call and its result object per piece) and writes the buffer each time it fills.
 * In a CPU profile of the member center that was 9 % of the busy time (`writeChunk` 5.5 % of its own,
 * `encodeInto` 2.7 %), for a 50 kB page.
 *
 * The patched config (what React's string-based configs do, the Bun one among them) joins the pieces into a
 * string and encodes it once it passes 4 kB (V8 joins strings without copying until then), and at the end of
 * each flush. The fixed pieces React prepares once at start (`stringToPrecomputedChunk`) stay encoded, for
 * React's byte counts, and carry their text beside, so they join the string too; a piece without text (none in
 * a render to a Node stream) writes the string so far, then itself, as before. The bytes that reach the
 * stream are the same, in the same order (`react-dom-string-chunks.test.tsx` renders with both and compares).
 *
 * The string so far is module state, as React's own buffer is: it is written out at the end of every flush
 * (`completeWriting`, which React calls in a `finally`), and dropped at the start of one, so nothing of one
 * response can reach another.
 *
 * react-dom is pinned in package.json; if a replaced text is not found (an upgrade changed it), the build fails.
 */
const TARGET = /[\\/]react-dom[\\/]cjs[\\/]react-dom-server\.node\.production\.js$/;

export const PRECOMPUTED_CHUNK = `var textEncoder = new util.TextEncoder();
function stringToPrecomputedChunk(content) {
  return textEncoder.encode(content);
}`;

const WRITE_CHUNK = "function writeChunk(destination, chunk) {";
const COMPLETE_WRITING = "function completeWriting(destination) {";
const FLUSH_START = `function flushCompletedQueues(request, destination) {
  currentView = new Uint8Array(4096);`;

export const STRING_CHUNKS_SOURCE = `var textEncoder = new util.TextEncoder();
var hanPendingHtml = "";
function stringToPrecomputedChunk(content) {
  var chunk = textEncoder.encode(content);
  chunk.hanHtml = content;
  return chunk;
}
function writeChunk(destination, chunk) {
  if ("string" === typeof chunk) hanPendingHtml += chunk;
  else if (void 0 !== chunk.hanHtml) hanPendingHtml += chunk.hanHtml;
  else {
    hanWritePendingHtml(destination);
    hanWriteChunkBytes(destination, chunk);
    return;
  }
  4096 < hanPendingHtml.length && hanWritePendingHtml(destination);
}
function hanWritePendingHtml(destination) {
  if (0 !== hanPendingHtml.length) {
    var html = hanPendingHtml;
    hanPendingHtml = "";
    hanWriteChunkBytes(destination, html);
  }
}
function completeWriting(destination) {
  hanWritePendingHtml(destination);
  hanCompleteWritingBytes(destination);
}`;

function replaceOnce(code: string, find: string, replacement: string): string {
  if (code.split(find).length !== 2) throw new Error(`react-dom-server.node.production.js: "${find}" changed`);
  return code.replace(find, () => replacement);
}

/** The patch (platform/bundling/server-patches.ts). */
export const stringChunksPatch: SourcePatch = {
  name: "writeChunk (react-dom/cjs/react-dom-server.node.production.js)",
  file: TARGET,
  find: PRECOMPUTED_CHUNK,
  apply: (code) => {
    let out = replaceOnce(code, WRITE_CHUNK, "function hanWriteChunkBytes(destination, chunk) {");
    out = replaceOnce(out, COMPLETE_WRITING, "function hanCompleteWritingBytes(destination) {");
    out = replaceOnce(out, FLUSH_START, `${FLUSH_START}\n  hanPendingHtml = "";`);
    return replaceOnce(out, PRECOMPUTED_CHUNK, STRING_CHUNKS_SOURCE);
  },
};
