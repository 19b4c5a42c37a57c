/// <reference lib="webworker" />
// Solves an ALTCHA (v1) challenge: find n ≤ maxnumber with SHA-256(salt + n) = challenge.
type Challenge = { algorithm: string; challenge: string; maxnumber?: number; salt: string; signature: string };

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

self.onmessage = async (event: MessageEvent<Challenge>) => {
  const c = event.data;
  const encoder = new TextEncoder();
  const max = c.maxnumber ?? 1_000_000;
  for (let n = 0; n <= max; n++) {
    const digest = await crypto.subtle.digest("SHA-256", encoder.encode(c.salt + n));
    if (hex(digest) === c.challenge) {
      const payload = {
        algorithm: c.algorithm,
        challenge: c.challenge,
        number: n,
        salt: c.salt,
        signature: c.signature,
      };
      self.postMessage({ payload: btoa(JSON.stringify(payload)) });
      return;
    }
  }
  self.postMessage({ payload: null });
};
