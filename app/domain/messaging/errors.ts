/**
 * Why a message was refused before it was queued: the caller's input is wrong (a URL in the text,
 * a number that is not a phone number, …). Nothing was queued; fix the caller.
 */
export class MessageRejectedError extends Error {
  override name = "MessageRejectedError";
  /** A job holding such a message fails at once instead of being retried. */
  readonly permanent = true;
  constructor(
    readonly reason: "empty" | "url" | "too-long" | "recipient" | "email",
    message: string,
  ) {
    super(message);
  }
}

export type DeliveryErrorOptions = {
  provider: string;
  /** True when trying again later may succeed (outage, rate limit, timeout). */
  retryable: boolean;
  /** The provider's own error or status code, when it gave one. */
  code?: string;
  /** The HTTP or SMTP status, when there was one. */
  status?: number;
  cause?: unknown;
};

/**
 * A provider did not take the message. `permanent` tells the job queue not to retry (see
 * platform/jobs/queue.ts): a refused number or bad credentials will not fix themselves.
 */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  readonly provider: string;
  readonly retryable: boolean;
  readonly permanent: boolean;
  readonly code: string | undefined;
  readonly status: number | undefined;

  constructor(message: string, options: DeliveryErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = options.provider;
    this.retryable = options.retryable;
    this.permanent = !options.retryable;
    this.code = options.code;
    this.status = options.status;
  }
}
