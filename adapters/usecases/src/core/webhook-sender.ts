// The port through which deliveries leave the service. The webhooks adapter (@kerf/webhooks) fills
// it: it signs, refuses addresses a webhook must not reach (SSRF), and sends over HTTP. The use
// cases decide what to send, when, and what an outcome means.

export interface WebhookRequest {
  url: string;
  /** e.g. 'design.ready' */
  eventType: string;
  /** the exact bytes to send and sign (UTF-8 JSON) */
  body: string;
  /** signing secrets, newest first: one signature each (two during a secret roll) */
  secrets: string[];
  /** Unix seconds, from the service clock */
  timestamp: number;
  timeoutMs: number;
}

export interface WebhookOutcome {
  /** the receiver answered 2xx */
  delivered: boolean;
  /** the receiver's response status; null when none came (refused, timeout, connection error) */
  responseStatus: number | null;
  /** why it was not delivered, for the delivery log; null when delivered */
  error: string | null;
}

export interface WebhookSender {
  /** Why webhooks may not be sent to this URL as written (scheme, a private address literal), or null. */
  refuseUrl(url: string): string | null;
  /** One attempt. Never throws for a receiver's failure: it is the outcome. */
  send(request: WebhookRequest): Promise<WebhookOutcome>;
}
