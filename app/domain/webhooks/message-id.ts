/** The `webhook-id` of an outbox row (ADR 054): stable across retries and redeliveries. */
export function webhookMessageId(deliveryId: string): string {
  return `msg_${deliveryId.replaceAll("-", "")}`;
}
