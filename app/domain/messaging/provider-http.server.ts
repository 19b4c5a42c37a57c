import { DeliveryError } from "./errors";

/** Provider calls give up after this long; the job queue retries them later. */
export const PROVIDER_TIMEOUT_MS = 10_000;

export const USER_AGENT = "han-living-member/1 (+messaging)";

export type ProviderResponse = { status: number; contentType: string; body: Uint8Array };

/**
 * POSTs a form to a provider. A network failure or timeout is a retryable DeliveryError: the
 * provider may or may not have taken the message, so adapters pass an idempotency key where the
 * provider supports one.
 */
export async function postForm(
  provider: string,
  url: string,
  form: URLSearchParams,
  headers: Record<string, string> = {},
  fetchImpl: typeof fetch = fetch,
): Promise<ProviderResponse> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "User-Agent": USER_AGENT,
        ...headers,
      },
      body: form.toString(),
      redirect: "error",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeliveryError(`${provider}: request failed (${(error as Error).message})`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  let body: Uint8Array;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new DeliveryError(`${provider}: response cut off (${(error as Error).message})`, {
      provider,
      retryable: true,
      status: response.status,
      cause: error,
    });
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", body };
}

/** 408, 429 and 5xx are worth another try; other HTTP errors are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Joins a configured base URL (with or without a trailing slash or a path) and an API path. */
export function providerUrl(baseUrl: string, pathAndQuery: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${pathAndQuery}`;
}
