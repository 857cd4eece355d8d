import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ConfirmationResult, NetworkClient, NetworkConfirmation } from '../../../lib/core/ports/network-client.js';
import type { SecretSealer } from '../../../lib/core/ports/secret-sealer.js';
import type { DeliveryResult, WebhookRequest, WebhookSender, WebhookUrlCheck } from '../../../lib/core/ports/webhook-sender.js';

/**
 * A sealer that binds a secret to its merchant as KMS's encryption context does: a sealed secret
 * opens only for the merchant it was sealed for. Counts its calls (KMS is billed per call).
 */
export class FakeSealer implements SecretSealer {
  opens = 0;
  outage = false;
  async seal(secret: string, merchantRef: string): Promise<string> {
    return `sealed:${Buffer.from(JSON.stringify([merchantRef, secret])).toString('base64')}`;
  }
  async open(sealed: string, merchantRef: string): Promise<string> {
    this.opens++;
    if (this.outage) throw new Error('KMS unavailable (fake)');
    const [boundTo, secret] = JSON.parse(Buffer.from(sealed.slice('sealed:'.length), 'base64').toString()) as [string, string];
    if (boundTo !== merchantRef) throw new Error('sealed for another merchant');
    return secret;
  }
}

/** Every https URL is safe here, anything else not (the real guard resolves names: lib/adapters/webhooks). */
export const httpsOnly: WebhookUrlCheck = {
  async check(raw) {
    return raw.startsWith('https://') ? { safe: true, url: raw } : { safe: false, reason: 'must be https' };
  },
};

export interface Received extends WebhookRequest {
  /** Which of the receiver's secrets verified the signature, per the Standard Webhooks spec. */
  verifiedWith: string[];
}

/**
 * A merchant's receiver: records every delivery and checks it as the Standard Webhooks
 * specification says a receiver must (webhook-id, webhook-timestamp, and one `v1,` HMAC-SHA256
 * of "id.timestamp.body" per secret) — computed here from the spec, not by the signing library.
 * Answers from `answers` in order, then `otherwise`.
 */
export class RecordingReceiver implements WebhookSender {
  readonly received: Received[] = [];
  readonly answers: DeliveryResult[] = [];
  otherwise: DeliveryResult = { ok: true, status: 204, durationMs: 3 };
  /** Holds each send until it resolves (for claim races). */
  hold: Promise<void> | undefined;

  constructor(private readonly secrets: () => readonly string[]) {}

  async send(request: WebhookRequest): Promise<DeliveryResult> {
    const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = request.headers;
    if (!id || !timestamp || !signature) throw new Error('receiver fake: a Standard Webhooks header is missing');
    const content = `${id}.${timestamp}.${request.body}`;
    const verifiedWith = this.secrets().filter((secret) => {
      const expected = Buffer.from(
        createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
          .update(content)
          .digest('base64'),
      );
      return signature.split(' ').some((candidate) => {
        const given = Buffer.from(candidate.replace(/^v1,/, ''));
        return candidate.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
      });
    });
    this.received.push({ ...request, verifiedWith });
    if (this.hold) await this.hold;
    return this.answers.shift() ?? this.otherwise;
  }
}

/** A card network's confirmations API: records each confirmation; answers from `answers`, then `otherwise`. */
export class RecordingNetwork implements NetworkClient {
  readonly received: NetworkConfirmation[] = [];
  readonly answers: ConfirmationResult[] = [];
  otherwise: ConfirmationResult = { ok: true, status: 200, durationMs: 4 };
  async confirm(confirmation: NetworkConfirmation): Promise<ConfirmationResult> {
    if (!/^cnf_[0-9a-f]{32}$/.test(confirmation.id) || !confirmation.srcCorrelationId) throw new Error('network fake: not a confirmation');
    this.received.push(confirmation);
    return this.answers.shift() ?? this.otherwise;
  }
}
