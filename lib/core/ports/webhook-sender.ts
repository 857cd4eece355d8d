/**
 * A failed delivery, as the delivery history records it and a merchant may see it. Only these
 * words leave a sender: a socket's or OpenSSL's own text (which can name internal hosts and
 * addresses) never does.
 */
export type DeliveryError = 'timeout' | 'connection' | 'dns' | 'blocked-address' | 'tls' | 'invalid-url';

export interface DeliveryResult {
  /** True iff the receiver answered 2xx. A 3xx is a failure: redirects are never followed. */
  ok: boolean;
  status?: number;
  error?: DeliveryError;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  /** The exact JSON text that was signed. */
  body: string;
  /** The `webhook-*` headers (and any other the caller adds). */
  headers: Record<string, string>;
  /** Sandbox merchants only: loopback receivers, and http to them. */
  allowLoopback: boolean;
}

/** POSTs one signed event to a merchant's receiver (SPEC 4.15: 10 s, no redirects, SSRF-guarded). */
export interface WebhookSender {
  /** Never rejects for a delivery failure. The caller's `signal` aborting counts as 'timeout'. */
  send(request: WebhookRequest, signal?: AbortSignal): Promise<DeliveryResult>;
}

/**
 * The check a webhook URL passes before it is stored (SPEC 4.15): https, no credentials, no
 * fragment, a name that resolves to public addresses only (http to loopback for sandbox
 * merchants). `reason` says why not, in words that never repeat the URL.
 */
export interface WebhookUrlCheck {
  check(raw: string, options: { allowLoopback: boolean }): Promise<{ safe: true; url: string } | { safe: false; reason: string }>;
}
