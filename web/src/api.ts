import type * as z from 'zod';
import type { BrowserInfo } from './three-ds-browser.js';
import type { encryptionKeysResource, merchantConfigResource, orderResource, paymentResource } from '../../lib/http/resource-schemas.js';

/**
 * The service API (SPEC §4) as the hosted page uses it, authorised by the session token.
 * Its types are the server's own response schemas (lib/http/resource-schemas.ts), inferred:
 * a field the server renames or drops breaks `tsc` here instead of the page at run time.
 * Type-only imports: neither zod nor anything of lib/ is bundled into the page.
 */
export type Order = z.infer<typeof orderResource>;
export type Payment = z.infer<typeof paymentResource>;
export type PaymentState = Payment['state'];
export type Amount = Order['amount'];
export type MerchantConfig = z.infer<typeof merchantConfigResource>;
export type EncryptionKeys = z.infer<typeof encryptionKeysResource>;
export type EncryptionKey = EncryptionKeys['keys'][number];

/** A failed call: HTTP status and the problem `code` only — never the raw payload. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`API error ${status} ${code}`);
    this.name = 'ApiError';
  }
}

export class ApiClient {
  constructor(
    private readonly token: string,
    private readonly base = '',
  ) {}

  merchantConfig(merchantRef: string): Promise<MerchantConfig> {
    return this.request('GET', `/config/merchants/${encodeURIComponent(merchantRef)}/configs/vctp`);
  }

  encryptionKeys(): Promise<EncryptionKeys> {
    return this.request('GET', '/config/configs/vctp/encryption-keys');
  }

  order(outletId: string, orderRef: string): Promise<Order> {
    return this.request('GET', orderPath(outletId, orderRef));
  }

  /** 4.3, with the browser's data a production step-up's AReq needs (SPEC 4.17). */
  payWithClickToPay(outletId: string, orderRef: string, paymentRef: string, checkoutResponse: unknown, browserInfo: BrowserInfo): Promise<Payment> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments/${encodeURIComponent(paymentRef)}/click-to-pay`, { checkoutResponse, browserInfo });
  }

  /** 4.10 after the challenge. */
  completeThreeDs(outletId: string, orderRef: string, paymentRef: string, cres: string): Promise<Payment> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments/${encodeURIComponent(paymentRef)}/3ds`, { cres });
  }

  /** 4.10 after the 3DS Method: Y it completed, N it did not within 10 s. */
  continueThreeDs(outletId: string, orderRef: string, paymentRef: string, threeDSCompInd: 'Y' | 'N', browserInfo: BrowserInfo): Promise<Payment> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments/${encodeURIComponent(paymentRef)}/3ds`, { threeDSCompInd, browserInfo });
  }

  /**
   * A new payment on the same order after a retryable decline (the N-Genius way): 201 with the
   * order, the new STARTED payment last. The key (derived from the declined payment) makes a
   * double click or a resent request give the same new payment, not two.
   */
  newPayment(outletId: string, orderRef: string, afterPaymentRef: string): Promise<Order> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments`, undefined, { 'Idempotency-Key': `retry-${afterPaymentRef}` });
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.token}`,
          Accept: 'application/json, application/problem+json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        cache: 'no-store',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR');
    }
    const parsed = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) {
      const code = parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string' ? (parsed as { code: string }).code : '';
      throw new ApiError(response.status, code || `HTTP_${response.status}`);
    }
    if (parsed === undefined) throw new ApiError(response.status, 'INVALID_RESPONSE');
    return parsed as T;
  }
}

function orderPath(outletId: string, orderRef: string): string {
  return `/transactions/outlets/${encodeURIComponent(outletId)}/orders/${encodeURIComponent(orderRef)}`;
}

export function currentPayment(order: Order): Payment | undefined {
  return order.payments[order.payments.length - 1];
}
