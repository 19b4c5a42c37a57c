/**
 * The items of a large JSON export, streamed (issue 35): an incremental scanner finds where each item
 * starts and ends, and only that item's text is parsed (JSON.parse), so a file of a million users runs in
 * the memory of one user. Pure and client-safe (strings in, values out).
 *
 * Shapes understood, where an "item" is one document / one user:
 * - `[item, item, …]`
 * - `{"users"|"documents"|…: [item, …], …}` — every array member of the root object is a list of items;
 *   other members (a count, an export date) are skipped.
 * - `{"<id>": {item}, …}` — an object keyed by document id (the key comes with the item), also one level
 *   down under a collection name (`{"memberList": {"<id>": {…}}}`). A root member that grows past 1 MB is
 *   taken for such a collection and rescanned as one.
 * - NDJSON or concatenated JSON documents: `{item}\n{item}\n…` (decided when the first value is a whole
 *   object of at most 1 MB and another value follows it).
 * - A single document `{…}` (one object with plain fields).
 * Errors: `empty` (nothing but whitespace), `not_json` (with the line), `truncated` (the text ends inside
 * a value, with the last line), `too_large` (one item over 64 MB).
 */
import { ImportFileError } from "./errors";

export type JsonItem = { line: number; key: string | null; value: unknown };

/** Names of a root member whose object value is a collection keyed by id rather than one document. */
const COLLECTION_KEYS = new Set([
  "users",
  "documents",
  "docs",
  "members",
  "memberlist",
  "data",
  "items",
  "records",
  "results",
  "rows",
  "__collections__",
]);

const DECIDE_CHARS = 1_000_000;
const REWIND_CHARS = 1_000_000;
const MAX_ITEM_CHARS = 64 * 1024 * 1024;

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

type Role = "items" | "root" | "keyed";
type Frame = { kind: "arr" | "obj"; role: Role; expect: "key" | "colon" | "value" | "comma"; key: string | null };

type Capture = {
  start: number;
  line: number;
  key: string | null;
  /** Parse and emit (false: skip the value). */
  emit: boolean;
  /** A root member's object that may turn out to be a keyed collection. */
  rewindable: boolean;
  depth: number;
  inString: boolean;
  escape: boolean;
  scalar: boolean;
  started: boolean;
};

export async function* jsonItems(text: AsyncIterable<string>): AsyncGenerator<JsonItem> {
  const iterator = text[Symbol.asyncIterator]();
  let buf = "";
  let pos = 0;
  let line = 1;
  let eof = false;

  const more = async (keepFrom: number): Promise<number> => {
    // Drops what is consumed; answers how much was dropped (callers shift their indexes).
    if (eof) return 0;
    const next = await iterator.next();
    const dropped = keepFrom;
    buf = buf.slice(keepFrom);
    pos -= dropped;
    if (next.done) eof = true;
    else buf += next.value;
    return dropped;
  };

  const skipWs = (): void => {
    while (pos < buf.length) {
      const c = buf.charCodeAt(pos);
      if (!WS(c)) return;
      if (c === 0x0a) line++;
      pos++;
    }
  };

  // --- The first value: which shape is this?
  for (;;) {
    skipWs();
    if (pos < buf.length || eof) break;
    await more(pos);
  }
  if (pos < buf.length && buf.charCodeAt(pos) === 0xfeff) {
    pos++;
    for (;;) {
      skipWs();
      if (pos < buf.length || eof) break;
      await more(pos);
    }
  }
  if (pos >= buf.length) throw new ImportFileError("empty", line);
  const first = buf[pos];
  if (first !== "{" && first !== "[") throw new ImportFileError("not_json", line);

  let mode: "container" | "stream" = "container";
  let single: { line: number; value: unknown } | null = null;
  let firstInvalid = false;
  if (first === "{") {
    // Find the end of the first value within DECIDE_CHARS.
    const startLine = line;
    let end = -1;
    let scanFrom = pos;
    const state = { depth: 0, inString: false, escape: false };
    while (end === -1) {
      end = scanEnd(buf, scanFrom, state);
      if (end !== -1) break;
      scanFrom = buf.length;
      if (buf.length - pos > DECIDE_CHARS || eof) break;
      const dropped = await more(pos);
      scanFrom -= dropped;
    }
    if (end === -1 && eof) throw new ImportFileError("truncated", line + countLines(buf, pos, buf.length));
    if (end !== -1) {
      // What follows the first value?
      let after = end;
      for (;;) {
        while (after < buf.length && WS(buf.charCodeAt(after))) after++;
        if (after < buf.length || eof) break;
        const dropped = await more(pos);
        end -= dropped;
        after -= dropped;
      }
      if (after < buf.length) mode = "stream";
      else {
        // Unparseable: the container scan below finds the broken item and its line.
        let value: unknown;
        try {
          value = JSON.parse(buf.slice(pos, end));
        } catch {
          firstInvalid = true;
        }
        if (!firstInvalid && looksLikeDocument(value)) single = { line: startLine, value };
      }
    }
  }

  if (single) {
    yield { line: single.line, key: null, value: single.value };
    return;
  }

  if (mode === "stream") {
    // Concatenated documents: every root value is an item.
    for (;;) {
      for (;;) {
        skipWs();
        if (pos < buf.length || eof) break;
        await more(pos);
      }
      if (pos >= buf.length) return;
      const start = pos;
      const startLine = line;
      const c = buf[pos];
      if (c !== "{" && c !== "[") throw new ImportFileError("not_json", line);
      const state = { depth: 0, inString: false, escape: false };
      let end = scanEnd(buf, pos, state);
      let scanned = buf.length;
      let offset = start;
      while (end === -1) {
        if (eof) throw new ImportFileError("truncated", startLine + countLines(buf, offset, buf.length));
        if (buf.length - offset > MAX_ITEM_CHARS) throw new ImportFileError("too_large", startLine);
        const dropped = await more(offset);
        offset -= dropped;
        scanned -= dropped;
        end = scanEnd(buf, scanned, state);
        scanned = buf.length;
      }
      line = startLine + countLines(buf, offset, end);
      pos = end;
      yield { line: startLine, key: null, value: parseItem(buf.slice(offset, end), startLine) };
    }
  }

  // --- Container mode: a stack of frames down to the items, captures for the items themselves.
  const frames: Frame[] = [];
  let cap: Capture | null = null;
  let rootClosed = false;
  const out: JsonItem[] = [];

  const startCapture = (key: string | null, emit: boolean, rewindable: boolean) => {
    cap = {
      start: pos,
      line,
      key,
      emit,
      rewindable,
      depth: 0,
      inString: false,
      escape: false,
      scalar: false,
      started: false,
    };
  };

  /** Advances the capture; true when the captured value ended (at pos). */
  const stepCapture = (c0: Capture): boolean => {
    const c = c0;
    if (!c.started) {
      const ch = buf.charCodeAt(pos);
      c.started = true;
      if (ch === 0x7b || ch === 0x5b) {
        c.depth = 1;
        pos++;
      } else if (ch === 0x22) {
        c.inString = true;
        pos++;
      } else c.scalar = true;
    }
    if (c.scalar) {
      while (pos < buf.length) {
        const ch = buf.charCodeAt(pos);
        if (ch === 0x2c || ch === 0x5d || ch === 0x7d || WS(ch)) return true;
        pos++;
      }
      return eof;
    }
    while (pos < buf.length) {
      const ch = buf.charCodeAt(pos);
      pos++;
      if (c.inString) {
        if (c.escape) c.escape = false;
        else if (ch === 0x5c) c.escape = true;
        else if (ch === 0x22) {
          c.inString = false;
          if (c.depth === 0) return true;
        }
        continue;
      }
      if (ch === 0x22) c.inString = true;
      else if (ch === 0x7b || ch === 0x5b) c.depth++;
      else if (ch === 0x7d || ch === 0x5d) {
        c.depth--;
        if (c.depth === 0) return true;
      } else if (ch === 0x0a) line++;
    }
    return false;
  };

  /** Reads a JSON string at pos (pos at the opening quote); null when the buffer ends first. */
  const readString = (): string | null => {
    let i = pos + 1;
    while (i < buf.length) {
      const ch = buf.charCodeAt(i);
      if (ch === 0x5c) i += 2;
      else if (ch === 0x22) {
        const raw = buf.slice(pos, i + 1);
        pos = i + 1;
        try {
          return JSON.parse(raw) as string;
        } catch {
          throw new ImportFileError("not_json", line);
        }
      } else i++;
    }
    return null;
  };

  const closeFrame = () => {
    frames.pop();
    const parent = frames[frames.length - 1];
    if (parent) parent.expect = "comma";
    else rootClosed = true;
  };

  // The root container.
  frames.push({
    kind: first === "[" ? "arr" : "obj",
    role: first === "[" ? "items" : "root",
    expect: first === "[" ? "value" : "key",
    key: null,
  });
  pos++;

  for (;;) {
    // Work through the buffer.
    let needMore = false;
    while (!needMore) {
      if (cap) {
        const c: Capture = cap;
        const done = stepCapture(c);
        if (!done) {
          if (c.rewindable && pos - c.start > REWIND_CHARS) {
            // A root member this big is a collection keyed by id: scan it as one.
            pos = c.start + 1;
            line = c.line;
            cap = null;
            frames.push({ kind: "obj", role: "keyed", expect: "key", key: null });
            continue;
          }
          if (pos - c.start > MAX_ITEM_CHARS) throw new ImportFileError("too_large", c.line);
          needMore = true;
          break;
        }
        if (c.emit) out.push({ line: c.line, key: c.key, value: parseItem(buf.slice(c.start, pos), c.line) });
        cap = null;
        const frame = frames[frames.length - 1] as Frame;
        frame.expect = "comma";
        continue;
      }
      skipWs();
      if (pos >= buf.length) {
        needMore = true;
        break;
      }
      if (rootClosed) throw new ImportFileError("not_json", line);
      const frame = frames[frames.length - 1] as Frame;
      const ch = buf[pos];
      if (frame.expect === "comma") {
        if (ch === ",") {
          pos++;
          frame.expect = frame.kind === "obj" ? "key" : "value";
        } else if ((ch === "]" && frame.kind === "arr") || (ch === "}" && frame.kind === "obj")) {
          pos++;
          closeFrame();
        } else throw new ImportFileError("not_json", line);
        continue;
      }
      if (frame.expect === "key") {
        if (ch === "}") {
          pos++;
          closeFrame();
          continue;
        }
        if (ch !== '"') throw new ImportFileError("not_json", line);
        const key = readString();
        if (key === null) {
          needMore = true;
          break;
        }
        frame.key = key;
        frame.expect = "colon";
        continue;
      }
      if (frame.expect === "colon") {
        if (ch !== ":") throw new ImportFileError("not_json", line);
        pos++;
        frame.expect = "value";
        continue;
      }
      // expect value
      if (frame.kind === "arr" && ch === "]") {
        pos++;
        closeFrame();
        continue;
      }
      if (frame.role === "items") startCapture(null, true, false);
      else if (frame.role === "keyed") startCapture(frame.key, true, false);
      else if (ch === "[") {
        pos++;
        frames.push({ kind: "arr", role: "items", expect: "value", key: null });
      } else if (ch === "{" && COLLECTION_KEYS.has((frame.key ?? "").toLowerCase())) {
        pos++;
        frames.push({ kind: "obj", role: "keyed", expect: "key", key: null });
      } else if (ch === "{") startCapture(frame.key, true, true);
      else startCapture(null, false, false);
    }
    for (const item of out) yield item;
    out.length = 0;
    if (eof) break;
    const keep = cap ? (cap as Capture).start : pos;
    const dropped = await more(keep);
    if (cap) (cap as Capture).start -= dropped;
  }
  if (!rootClosed) throw new ImportFileError("truncated", line);
  if (firstInvalid) throw new ImportFileError("not_json", 1);
}

/** Finds the end (exclusive) of the value starting at or continuing from `from`; -1 when not in `buf`. */
function scanEnd(buf: string, from: number, state: { depth: number; inString: boolean; escape: boolean }): number {
  for (let i = from; i < buf.length; i++) {
    const ch = buf.charCodeAt(i);
    if (state.inString) {
      if (state.escape) state.escape = false;
      else if (ch === 0x5c) state.escape = true;
      else if (ch === 0x22) state.inString = false;
      continue;
    }
    if (ch === 0x22) state.inString = true;
    else if (ch === 0x7b || ch === 0x5b) state.depth++;
    else if (ch === 0x7d || ch === 0x5d) {
      state.depth--;
      if (state.depth === 0) return i + 1;
    }
  }
  return -1;
}

function countLines(buf: string, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf("\n", from); i !== -1 && i < to; i = buf.indexOf("\n", i + 1)) n++;
  return n;
}

function parseItem(raw: string, line: number): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ImportFileError("not_json", line);
  }
}

/** A single small object: one document (plain fields, no list of objects), or a container of items. */
function looksLikeDocument(value: unknown): boolean {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const members = Object.entries(value as Record<string, unknown>);
  if (members.length === 0) return false;
  const hasScalar = members.some(([, v]) => v === null || typeof v !== "object");
  const hasList = members.some(([, v]) => Array.isArray(v) && v.some((x) => x && typeof x === "object"));
  const hasCollection = members.some(([k, v]) => COLLECTION_KEYS.has(k.toLowerCase()) && v && typeof v === "object");
  return hasScalar && !hasList && !hasCollection;
}
