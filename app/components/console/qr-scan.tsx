import type QrScannerType from "qr-scanner";
import { useEffect, useRef, useState } from "react";
import { cn } from "~/lib/cn";
import { useConsoleT } from "./use-console-t";

type Status = "closed" | "starting" | "scanning" | "read" | "unavailable";

/**
 * A button that opens the device camera and reads one QR code (ADR 022). The scanner library
 * (`qr-scanner`: the browser's BarcodeDetector where it exists, a decoder in a worker elsewhere) is
 * imported only when the camera opens, so the counter's page loads none of it. The picture stops as
 * soon as a code was read, when the scanner closes, and when the page is left.
 */
export function QrScan({
  label,
  onResult,
  testId,
}: {
  label: string;
  onResult: (text: string) => void;
  testId?: string;
}) {
  const t = useConsoleT();
  const [status, setStatus] = useState<Status>("closed");
  const video = useRef<HTMLVideoElement>(null);
  const scanner = useRef<QrScannerType | null>(null);
  const handler = useRef(onResult);
  handler.current = onResult;

  useEffect(() => {
    if (status !== "starting") return;
    let cancelled = false;
    (async () => {
      try {
        const { default: QrScanner } = await import("qr-scanner");
        if (cancelled || !video.current) return;
        const instance = new QrScanner(
          video.current,
          (result) => {
            if (!result.data) return;
            instance.stop();
            setStatus("read");
            handler.current(result.data);
          },
          { returnDetailedScanResult: true, preferredCamera: "environment", maxScansPerSecond: 8 },
        );
        scanner.current = instance;
        await instance.start();
        if (cancelled) instance.destroy();
        else setStatus("scanning");
      } catch {
        if (!cancelled) setStatus("unavailable");
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [status]);

  // Stop the camera when the component goes away (a navigation, the scanner closed).
  useEffect(
    () => () => {
      scanner.current?.destroy();
      scanner.current = null;
    },
    [],
  );

  function close() {
    scanner.current?.destroy();
    scanner.current = null;
    setStatus("closed");
  }

  const open = status === "starting" || status === "scanning" || status === "read";
  return (
    <div className="space-y-3" data-testid={testId}>
      {open ? (
        <>
          <div className="relative mx-auto aspect-[4/3] w-full max-w-md overflow-hidden rounded-2xl bg-ink">
            <video
              ref={video}
              className="h-full w-full object-cover"
              muted
              playsInline
              aria-label={t("console.counter.scan.video")}
            />
            <div
              aria-hidden
              className="pointer-events-none absolute inset-[15%] rounded-xl border-2 border-white/80 shadow-[0_0_0_999px_rgba(0,0,0,0.25)]"
            />
          </div>
          <p className="text-center text-sm text-muted" role="status" data-testid="scan-status">
            {status === "starting"
              ? t("console.counter.scan.starting")
              : status === "read"
                ? t("console.counter.scan.reading")
                : t("console.counter.scan.hint")}
          </p>
          <button
            type="button"
            onClick={close}
            className="mx-auto flex min-h-11 items-center rounded-full border border-line bg-white px-5 text-sm hover:bg-sand"
          >
            {t("console.counter.scan.close")}
          </button>
        </>
      ) : (
        <button
          type="button"
          onClick={() => setStatus("starting")}
          className={cn(
            "flex min-h-14 w-full items-center justify-center gap-3 rounded-2xl bg-ink px-5 text-lg font-medium text-paper",
            "hover:bg-ink/85 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
          )}
        >
          <CameraIcon />
          {label}
        </button>
      )}
      {status === "unavailable" ? (
        <p role="alert" className="text-sm text-danger-700">
          {t("console.counter.scan.unavailable")}
        </p>
      ) : null}
    </div>
  );
}

function CameraIcon() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="1.6">
      <path d="M4 8V6a2 2 0 0 1 2-2h2M16 4h2a2 2 0 0 1 2 2v2M20 16v2a2 2 0 0 1-2 2h-2M8 20H6a2 2 0 0 1-2-2v-2" />
      <path d="M7 12h10" />
    </svg>
  );
}
