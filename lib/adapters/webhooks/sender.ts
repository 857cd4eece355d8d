import http from 'node:http';
import https from 'node:https';
import * as z from 'zod';
import type { DeliveryResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.js';
import { deliveryErrorOf, type DeliveryError } from './delivery-error.js';
import { parseWebhookUrl, guardedLookup, UnsafeWebhookUrlError, type LookupAll, type UnsafeWebhookUrlReason } from './url-guard.js';

/**
 * The webhook transport (SPEC §4.15): one POST per call, bounded in time and in what it
 * reads, that reports what happened instead of throwing. Retries, the event store and the
 * signature headers belong to the caller. Headers named in RESERVED_HEADERS are the sender's own.
 */
export type { DeliveryError, DeliveryResult, WebhookRequest, WebhookSender };

export const DEFAULT_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read (then discarded): a receiver cannot make us buffer or wait on a stream. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = 'click-to-pay-webhooks/1';
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'user-agent']);
const ADDRESS_REASONS: ReadonlySet<UnsafeWebhookUrlReason> = new Set(['private', 'loopback', 'link-local', 'metadata', 'unspecified', 'multicast', 'reserved']);

const optionsSchema = z.object({ timeoutMs: z.number().int().min(1).max(60_000).default(DEFAULT_TIMEOUT_MS) });

type Outcome = Omit<DeliveryResult, 'durationMs'>;
const answered = (status: number): Outcome => ({ ok: status >= 200 && status < 300, status });

export class HttpWebhookSender implements WebhookSender {
  private readonly timeoutMs: number;
  private readonly lookup: LookupAll | undefined;

  constructor(options: { timeoutMs?: number; lookup?: LookupAll } = {}) {
    this.timeoutMs = optionsSchema.parse({ timeoutMs: options.timeoutMs }).timeoutMs;
    this.lookup = options.lookup;
  }

  async send(request: WebhookRequest, signal?: AbortSignal): Promise<DeliveryResult> {
    const started = performance.now();
    const finish = (outcome: Outcome): DeliveryResult => ({ ...outcome, durationMs: Math.round(performance.now() - started) });
    for (const name of Object.keys(request.headers)) {
      if (RESERVED_HEADERS.has(name.toLowerCase())) throw new TypeError(`the webhook sender sets the ${name} header itself`);
    }
    let url: URL;
    try {
      // Stored URLs were checked when configured; the rules may have tightened since.
      url = parseWebhookUrl(request.url, { allowLoopback: request.allowLoopback });
    } catch (error) {
      if (!(error instanceof UnsafeWebhookUrlError)) throw error;
      return finish({ ok: false, error: ADDRESS_REASONS.has(error.reason) ? 'blocked-address' : 'invalid-url' });
    }
    if (signal?.aborted) return finish({ ok: false, error: 'timeout' });
    return finish(await this.post(url, request, signal));
  }

  private post(url: URL, request: WebhookRequest, signal: AbortSignal | undefined): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      let status: number | undefined;
      let settled = false;
      // Once the status line is in, the merchant has answered: a stalled or broken body
      // afterwards does not turn a 200 into a failure.
      const settle = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        outgoing.destroy();
        resolve(outcome);
      };
      const stop = () => settle(status === undefined ? { ok: false, error: 'timeout' } : answered(status));
      const timer = setTimeout(stop, this.timeoutMs);
      signal?.addEventListener('abort', stop, { once: true });

      const transport = url.protocol === 'https:' ? https : http;
      let outgoing: http.ClientRequest;
      try {
        outgoing = transport.request(url, {
          method: 'POST',
          // A fresh socket per delivery: one merchant's connection is never reused for another's.
          agent: false,
          // Resolution and the address check happen on every connection Node opens.
          lookup: guardedLookup({ allowLoopback: request.allowLoopback, lookup: this.lookup, loopbackOnly: url.protocol === 'http:' }),
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'content-length': Buffer.byteLength(request.body),
          },
        });
      } catch (error) {
        // Only a programming error gets here (a header value with a newline, say).
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        throw error;
      }
      outgoing.on('error', (error) => settle(status === undefined ? { ok: false, error: deliveryErrorOf(error) } : answered(status)));
      outgoing.on('response', (incoming) => {
        status = incoming.statusCode ?? 0;
        let received = 0;
        incoming.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) stop();
        });
        incoming.on('end', stop);
        incoming.on('error', stop);
        incoming.on('close', stop);
      });
      outgoing.end(request.body);
    });
  }
}
