import { randomBytes } from 'node:crypto';
import { hmacKeyBytes, signItem } from '../../../lib/adapters/processors/adyen/notifications/hmac.js';
import { adyenWebhooksV1 } from '../../../lib/adapters/processors/adyen/notifications/webhook-schema.js';
import { violations } from '../schema-check.js';

export interface NotificationItemFields {
  eventCode: string;
  pspReference: string;
  originalReference?: string;
  merchantReference: string;
  amount: { currency: string; value: number };
  success: boolean;
}

export interface Delivery {
  item: NotificationItemFields;
  status: number;
  answer: string;
}

/**
 * Sends Adyen standard notifications the way Adyen does: one item per request, HMAC-signed with
 * the merchant's key, retried while the answer is not "[accepted]". Per test it can deliver each
 * notification twice, hold them so a test releases them out of order, or deliver them ahead of
 * the API answer of the operation they report (`ahead`: the fake answers only once the
 * notification has been answered, as when Adyen's webhook overtakes its own response).
 * `immediate` sends them while the answer is on its way: either may arrive first.
 */
export class AdyenNotifier {
  mode: 'immediate' | 'twice' | 'hold' | 'ahead' = 'immediate';
  readonly deliveries: Delivery[] = [];
  private readonly held: NotificationItemFields[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: { url?: string; hmacKeyHex: string; merchantAccount: string; live?: boolean }) {}

  notify(item: NotificationItemFields): void {
    if (!this.options.url) return;
    if (this.mode === 'hold') {
      this.held.push(item);
      return;
    }
    this.track(this.deliver(item));
    if (this.mode === 'twice') this.track(this.deliver(item));
  }

  /** Sends what was held, in the order given (`reverse`: newest first). */
  release(order: 'as-sent' | 'reverse' = 'as-sent'): void {
    const items = this.held.splice(0);
    if (order === 'reverse') items.reverse();
    this.track(
      (async () => {
        for (const item of items) await this.deliver(item);
      })(),
    );
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Waits until every delivery started so far has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** The body Adyen would send for one item (signed); also used by tests to forge variants. */
  body(item: NotificationItemFields, key = this.options.hmacKeyHex): unknown {
    const signed = {
      pspReference: item.pspReference,
      ...(item.originalReference ? { originalReference: item.originalReference } : {}),
      merchantAccountCode: this.options.merchantAccount,
      merchantReference: item.merchantReference,
      amount: item.amount,
      eventCode: item.eventCode,
      success: String(item.success),
    };
    const requestItem = {
      ...signed,
      eventDate: new Date().toISOString(),
      paymentMethod: 'visa',
      additionalData: { hmacSignature: signItem(signed, hmacKeyBytes(key)) },
    };
    const body = { live: String(this.options.live ?? false), notificationItems: [{ NotificationRequestItem: requestItem }] };
    const problems = violations(adyenWebhooksV1, 'CaptureNotificationRequest', body);
    if (problems.length > 0) throw new Error(`fake notification violates Webhooks-v1: ${problems.join('; ')}`);
    return body;
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async deliver(item: NotificationItemFields): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const response = await fetch(this.options.url!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(this.body(item)),
          signal: AbortSignal.timeout(5000),
        });
        const answer = await response.text();
        this.deliveries.push({ item, status: response.status, answer });
        if (response.ok && answer.includes('[accepted]')) return;
      } catch {
        this.deliveries.push({ item, status: 0, answer: '' });
      }
    }
  }
}

export const pspReference = () => randomBytes(8).toString('hex').toUpperCase().slice(0, 16);
