import type { z } from "zod";
import type { NamedStream } from "~/domain/imports/runs.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import type { serverT } from "~/lib/i18n.server";
import { fileFailure } from "./imports.server";

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

type Failure = ReturnType<typeof formFailure>;

/** An upload page's form, read and checked, with the answers its action gives about a field. */
export type ImportUpload<T> = {
  form: FormData;
  data: T;
  /** The page again with `message` beside `field` and the text fields as they were. */
  refuse: (field: string, message: string, status?: number) => Failure;
  /** A file the engine could not take, in words beside `field`; anything else is thrown again. */
  refuseFile: (error: unknown, field: string) => Failure;
};

/**
 * The start of an import page's action (CSV, Firebase): the upload read within its limit (too large: 413 beside
 * the file, naming the command line that takes larger files), then its text fields checked with `schema`.
 */
export async function readImportUpload<S extends z.ZodType>(
  request: Request,
  t: ReturnType<typeof serverT>,
  { files, schema, command }: { files: readonly string[]; schema: S; command: string },
): Promise<{ ok: true; upload: ImportUpload<z.infer<S>> } | { ok: false; failure: Failure }> {
  const fix = t("console.import.error.fix");
  const read = await readUploadForm(request, files);
  if (!read.ok) {
    const message = t("console.import.error.tooLarge", { command });
    return {
      ok: false,
      failure: formFailure({ errors: { [read.field]: [message] }, values: {}, formError: fix }, 413),
    };
  }
  const { form } = read;
  const parsed = parseForm(schema, form);
  if (!parsed.ok) return { ok: false, failure: formFailure({ ...parsed.failure, formError: fix }) };
  const refuse = (field: string, message: string, status = 400) =>
    formFailure({ errors: { [field]: [message] }, values: formValues(form), formError: fix }, status);
  const refuseFile = (error: unknown, field: string) => {
    const failure = fileFailure(error, t, field, command);
    if (!failure) throw error;
    return refuse(failure.field, failure.message, failure.status);
  };
  return { ok: true, upload: { form, data: parsed.data, refuse, refuseFile } };
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
