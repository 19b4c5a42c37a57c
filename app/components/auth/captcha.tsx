import { useEffect, useState } from "react";

export type CaptchaChallenge = {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
};

/**
 * The invisible captcha: solves the server's proof-of-work challenge in a worker (loaded only on
 * the pages that render this) and puts the answer in a hidden `altcha` field.
 */
export function useCaptcha(challenge: CaptchaChallenge | null | undefined) {
  const [payload, setPayload] = useState<string | null>(null);
  useEffect(() => {
    if (!challenge) return;
    setPayload(null);
    const worker = new Worker(new URL("../../lib/captcha.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<{ payload: string | null }>) => {
      setPayload(event.data.payload);
      worker.terminate();
    };
    worker.postMessage(challenge);
    return () => worker.terminate();
  }, [challenge]);
  return {
    ready: payload !== null,
    field: <input type="hidden" name="altcha" value={payload ?? ""} />,
  };
}
