import type { NamedStream } from "~/domain/imports/runs.server";
import { readForm } from "~/lib/forms.server";

/** Reading an import page's upload (issue 35): the request held to its limit, then each file on its own. */

/** A file the console takes: 100 MB; a larger one goes through the command line, which streams from disk. */
export const IMPORT_MAX_FILE_BYTES = 100 * 1024 * 1024;
/** Room in a request for the multipart framing and the form's text fields. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * The multipart form of an upload page, read with a limit: a Content-Length over `files` × 100 MB (plus the
 * form's room) is refused before a byte is read, and a body without a length is counted as it streams (the
 * read stops at the limit). Then every file on its own is held to 100 MB. `tooLarge` names the field.
 */
export async function readUploadForm(
  request: Request,
  fileFields: readonly string[],
): Promise<{ ok: true; form: FormData } | { ok: false; field: string }> {
  const limit = fileFields.length * IMPORT_MAX_FILE_BYTES + FORM_OVERHEAD_BYTES;
  const first = fileFields[0] ?? "file";
  const length = Number(request.headers.get("content-length"));
  if (Number.isFinite(length) && length > limit) {
    return { ok: false, field: first };
  }
  const limited = limitedRequest(request, limit);
  let form: FormData;
  try {
    form = await readForm(limited.request);
  } catch (error) {
    // readForm answers a body that broke off with a 400: here it broke off at the limit.
    if (limited.exceeded()) return { ok: false, field: first };
    throw error;
  }
  for (const field of fileFields) {
    const file = form.get(field);
    if (file instanceof File && file.size > IMPORT_MAX_FILE_BYTES) return { ok: false, field };
  }
  return { ok: true, form };
}

/** The request with its body counted: past `limit` bytes the stream errors and `exceeded()` says so. */
function limitedRequest(request: Request, limit: number): { request: Request; exceeded: () => boolean } {
  if (!request.body) return { request, exceeded: () => false };
  let seen = 0;
  let over = false;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          over = true;
          controller.error(new Error("upload too large"));
        } else controller.enqueue(chunk);
      },
    }),
  );
  const init: RequestInit & { duplex: "half" } = {
    method: request.method,
    headers: request.headers,
    body: counted,
    duplex: "half",
  };
  return { request: new Request(request.url, init), exceeded: () => over };
}

/** Which of a form's files the engine was reading last: the one a read error belongs to. */
export type ReadTracker = { last: string | null };

/**
 * A file field as the engine reads it, null when none was chosen (an empty file input sends an empty file). With
 * a tracker, every chunk read marks the field as the one being read.
 */
export function namedStream(form: FormData, field: string, tracker?: ReadTracker): NamedStream | null {
  const file = form.get(field);
  if (!(file instanceof File) || (file.size === 0 && file.name === "")) return null;
  const source = file.stream() as unknown as AsyncIterable<Uint8Array>;
  async function* stream() {
    if (tracker) tracker.last = field;
    for await (const chunk of source) {
      if (tracker) tracker.last = field;
      yield chunk;
    }
  }
  return { name: file.name || field, bytes: file.size, stream: stream() };
}

/** The whole text of a small file field (hash.json), or null. */
export async function smallFileText(form: FormData, field: string): Promise<string | null> {
  const file = form.get(field);
  if (!(file instanceof File) || (file.size === 0 && file.name === "")) return null;
  return file.text();
}
