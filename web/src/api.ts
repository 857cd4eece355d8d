import type { PaymentState } from '../../lib/domain/payment.js';
/** The service API (SPEC §4) as the hosted page uses it, authorised by the session token. */

export interface Amount {
  currencyCode: string;
  value: number;
}

export interface MerchantConfig {
  merchantRef: string;
  dpaId: string;
  dpaClientId: string;
  dpaName: string;
  cardBrands: string[];
  locale: string;
  environment: string;
  encryptionKeyId: string;
  clickToPayEnabled: boolean;
}

export interface EncryptionKey {
  kty: string;
  kid: string;
  n: string;
  e: string;
  alg?: string;
  status?: string;
}

export interface EncryptionKeys {
  encryptionKeyId: string;
  keys: EncryptionKey[];
}

// The server's own states (type-only: nothing of lib/ is bundled into the page).
export type { PaymentState };

export interface Payment {
  paymentRef: string;
  orderRef: string;
  outletId: string;
  state: PaymentState;
  amount: Amount;
  paymentMethod?: { type: string; brand?: string; panLastFour?: string; tokenLastFour?: string; expiry?: string };
  authorization?: { code: string; resultCode: string; at: string };
  threeDs?: { acsUrl: string; creq: string; transactionId: string };
  failure?: { code: string; reason: string };
}

export interface Order {
  orderRef: string;
  outletId: string;
  action: string;
  amount: Amount;
  merchantOrderReference?: string;
  state: PaymentState;
  payments: Payment[];
}

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

  payWithClickToPay(outletId: string, orderRef: string, paymentRef: string, checkoutResponse: unknown): Promise<Payment> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments/${encodeURIComponent(paymentRef)}/click-to-pay`, { checkoutResponse });
  }

  completeThreeDs(outletId: string, orderRef: string, paymentRef: string, cres: string): Promise<Payment> {
    return this.request('POST', `${orderPath(outletId, orderRef)}/payments/${encodeURIComponent(paymentRef)}/3ds`, { cres });
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.token}`,
          Accept: 'application/json, application/problem+json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
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
