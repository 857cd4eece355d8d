import type { Amount } from './amount.js';
import type { PaymentMethod } from './payment-methods.js';
import type { Payment, PaymentState } from './payment.js';
import { inAttemptOrder } from './payment-retry.js';

export type OrderAction = 'AUTH' | 'PURCHASE';

export interface Order {
  orderRef: string;
  outletId: string;
  merchantRef: string;
  tenantRef: string;
  action: OrderAction;
  amount: Amount;
  merchantOrderReference?: string;
  emailAddress?: string;
  /** 4.8 hosted payment page: where the page sends the shopper (lib/core/domain/redirect-url.ts checked them). */
  returnUrl?: string;
  cancelUrl?: string;
  /** The payment link this order was opened from (SPEC 4.14): its authorisation also announces payment_link.paid. */
  linkRef?: string;
  /**
   * That link's `description` (merchant free text, already checked when the link was made),
   * copied with the order so that every hosted session of it shows the shopper what they pay
   * for. Not part of the 4.8 order resource.
   */
  description?: string;
  createdAt: string;
}

/**
 * An order's state follows its payment (SPEC §3): the latest payment's state. After a retry
 * (lib/core/domain/payment-retry.ts) that is the new payment's: FAILED becomes STARTED again.
 */
export function orderState(payments: Payment[]): PaymentState {
  const latest = inAttemptOrder(payments).at(-1);
  if (!latest) return 'STARTED';
  return latest.state === 'PROCESSING' ? 'STARTED' : latest.state;
}

export interface OrderView {
  orderRef: string;
  outletId: string;
  action: OrderAction;
  amount: Amount;
  merchantOrderReference?: string;
  emailAddress?: string;
  returnUrl?: string;
  cancelUrl?: string;
  state: PaymentState;
  paymentMethods: PaymentMethod[];
  payments: unknown[];
  createdAt: string;
}

export type { Amount };
