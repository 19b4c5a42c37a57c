/** A text message ready for a provider: `to` in E.164, `text` branded and checked (see composeSms). */
export type OutgoingSms = {
  to: string;
  text: string;
  /** The same for every attempt of one message (the job id): lets a provider drop duplicates. */
  idempotencyKey: string;
};

export type SmsReceipt = { providerMessageId: string | null };

/**
 * One way of sending text messages. `send` resolves once the provider has taken the message and
 * throws a DeliveryError otherwise (retryable or permanent).
 */
export interface SmsProvider {
  readonly name: "outbox" | "mitake" | "twilio";
  send(sms: OutgoingSms): Promise<SmsReceipt>;
}
