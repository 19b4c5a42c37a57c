import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { ErrorList, Field } from "~/components/ui/field";
import { ALT_MAX_LENGTH, IMAGE_UPLOAD_PATH, MAX_IMAGE_BYTES } from "~/domain/images/limits";
import type { MediaImageView } from "~/domain/images/urls";
import { cn } from "~/lib/cn";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "./use-console-t";

/**
 * The console's image field (ADR 028), loaded lazily by the forms that use it (React.lazy): drop a photo
 * or choose one (on phones also the camera), see it, give its alt texts, upload with progress. The file
 * goes as the request body to IMAGE_UPLOAD_PATH; the server validates and answers with the image, or with
 * an error code shown, localized, beside the field it belongs to. No <form> of its own, so it can sit in
 * an editor's form; with `name`, the uploaded image's id is in a hidden input of that name.
 */
export type UploadedImage = MediaImageView & { created: boolean };

type Errors = { file?: string; altZh?: string; altEn?: string };
type Phase = { kind: "idle" } | { kind: "uploading"; percent: number } | { kind: "processing" };

export type ImageUploaderProps = {
  onUploaded?: (image: UploadedImage) => void;
  /** The hidden input's name that carries the uploaded image's id in the surrounding form. */
  name?: string;
  /** The heading of the group (default "Upload an image"). */
  legend?: string;
};

function send(file: File, alt: { altZh: string; altEn: string }, onProgress: (percent: number) => void) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${IMAGE_UPLOAD_PATH}?${new URLSearchParams(alt).toString()}`);
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => reject(new Error("network"));
    xhr.onabort = () => reject(new Error("network"));
    xhr.send(file);
  });
}

export default function ImageUploader({ onUploaded, name, legend }: ImageUploaderProps) {
  const t = useConsoleT();
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [altZh, setAltZh] = useState("");
  const [altEn, setAltEn] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [dragging, setDragging] = useState(false);
  const [done, setDone] = useState<UploadedImage | null>(null);

  // The preview is a blob: URL of the chosen file (allowed by the CSP's img-src); freed when replaced.
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null | undefined) => {
    setDone(null);
    if (!chosen) return;
    setFile(chosen);
    setErrors((e) => ({
      ...e,
      file: chosen.size > MAX_IMAGE_BYTES ? t("console.images.error.too_large") : undefined,
    }));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const clear = () => {
    setFile(null);
    if (fileRef.current) fileRef.current.value = "";
    if (cameraRef.current) cameraRef.current.value = "";
  };

  const upload = async () => {
    const found: Errors = {};
    if (!file) found.file = t("console.images.error.required");
    else if (file.size > MAX_IMAGE_BYTES) found.file = t("console.images.error.too_large");
    if (!altZh.trim()) found.altZh = t("console.images.error.altRequired");
    setErrors(found);
    if (!file || Object.keys(found).length > 0) return;
    setPhase({ kind: "uploading", percent: 0 });
    try {
      const { status, body } = await send(file, { altZh: altZh.trim(), altEn: altEn.trim() }, (percent) =>
        setPhase(percent >= 100 ? { kind: "processing" } : { kind: "uploading", percent }),
      );
      if (status === 200 || status === 201) {
        const answer = body as { image: MediaImageView; created: boolean };
        const uploaded = { ...answer.image, created: answer.created };
        setDone(uploaded);
        clear();
        setAltZh("");
        setAltEn("");
        onUploaded?.(uploaded);
      } else {
        const error = (body as { error?: { code?: string; field?: string; message?: string } } | null)?.error;
        const field = (error?.field ?? "file") as keyof Errors;
        const message =
          status === 413
            ? t("console.images.error.too_large")
            : (error?.message ?? t(status === 403 ? "console.forbidden.title" : "console.images.error.failed"));
        setErrors({ [field in { file: 1, altZh: 1, altEn: 1 } ? field : "file"]: message });
      }
    } catch {
      setErrors({ file: t("console.images.error.network") });
    } finally {
      setPhase({ kind: "idle" });
    }
  };

  const busy = phase.kind !== "idle";
  const fileHint = `${id}-hint`;
  const fileError = `${id}-file-error`;
  const described = [fileHint, errors.file ? fileError : null].filter(Boolean).join(" ");
  const doneKey: MessageKey =
    done?.created === false ? "console.images.upload.duplicate" : "console.images.upload.done";

  return (
    <fieldset className="space-y-4" data-testid="image-uploader">
      <legend className="text-lg font-semibold">{legend ?? t("console.images.upload.title")}</legend>
      {name ? <input type="hidden" name={name} value={done?.id ?? ""} /> : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file input inside is the keyboard's way */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed p-6 text-center sm:flex-row sm:text-left",
          dragging ? "border-brand-700 bg-brand-700/5" : "border-line bg-sand/40",
          errors.file && "border-danger-700",
        )}
        data-testid="image-dropzone"
      >
        {preview ? (
          <img
            src={preview}
            alt={t("console.images.upload.preview", { name: file?.name ?? "" })}
            className="h-28 w-28 shrink-0 rounded-xl border border-line bg-white object-cover"
            data-testid="image-preview"
          />
        ) : null}
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm">
            {t("console.images.upload.drop")}{" "}
            <input
              ref={fileRef}
              id={`${id}-file`}
              type="file"
              accept="image/*"
              className="peer sr-only"
              aria-describedby={described}
              aria-invalid={errors.file ? true : undefined}
              onChange={(event) => choose(event.target.files?.[0])}
              disabled={busy}
              data-testid="image-file"
            />
            <label
              htmlFor={`${id}-file`}
              className={cn(
                buttonVariants({ variant: "secondary", size: "sm" }),
                "cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
              )}
            >
              {t("console.images.upload.choose")}
            </label>
            {/* The camera: on touch devices only (a desktop's "take a photo" would open the file picker again). */}
            <span className="ml-2 hidden pointer-coarse:inline">
              <input
                ref={cameraRef}
                id={`${id}-camera`}
                type="file"
                accept="image/*"
                capture="environment"
                className="peer sr-only"
                onChange={(event) => choose(event.target.files?.[0])}
                disabled={busy}
              />
              <label
                htmlFor={`${id}-camera`}
                className={cn(
                  buttonVariants({ variant: "secondary", size: "sm" }),
                  "cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700",
                )}
              >
                {t("console.images.upload.camera")}
              </label>
            </span>
          </p>
          <p id={fileHint} className="text-sm text-muted">
            {file ? `${file.name} · ${(file.size / 1024 / 1024).toFixed(1)} MB` : t("console.images.upload.hint")}
          </p>
          {file && !busy ? (
            <button type="button" onClick={clear} className="text-sm underline underline-offset-4">
              {t("console.images.upload.remove")}
            </button>
          ) : null}
          <ErrorList id={fileError} errors={errors.file ? [errors.file] : null} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("console.images.upload.altZh")}
          description={t("console.images.upload.altZhHint")}
          errors={errors.altZh ? [errors.altZh] : null}
          inputProps={
            {
              value: altZh,
              onChange: (event) => setAltZh(event.target.value),
              maxLength: ALT_MAX_LENGTH,
              // Not `required`: the uploader sits inside editors' forms, whose submit must not be blocked by an
              // empty alt field of a photo nobody is uploading; the upload button checks it (error beside it).
              "aria-required": true,
              disabled: busy,
              lang: "zh-Hant-TW",
              "data-testid": "image-alt-zh",
            } as React.ComponentProps<"input">
          }
        />
        <Field
          label={t("console.images.upload.altEn")}
          errors={errors.altEn ? [errors.altEn] : null}
          inputProps={
            {
              value: altEn,
              onChange: (event) => setAltEn(event.target.value),
              maxLength: ALT_MAX_LENGTH,
              disabled: busy,
              lang: "en",
              "data-testid": "image-alt-en",
            } as React.ComponentProps<"input">
          }
        />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="button" onClick={upload} pending={busy} data-testid="image-upload">
          {t("console.images.upload.submit")}
        </Button>
        <div aria-live="polite" className="text-sm text-muted">
          {phase.kind === "uploading" ? (
            <span className="flex items-center gap-2">
              <progress max={100} value={phase.percent} className="h-2 w-32" aria-hidden="true" />
              {t("console.images.upload.uploading", { percent: phase.percent })}
            </span>
          ) : phase.kind === "processing" ? (
            t("console.images.upload.processing")
          ) : done ? (
            <span className="text-success-700" data-testid="image-uploaded">
              {t(doneKey, { alt: done.altZh })}
            </span>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}
