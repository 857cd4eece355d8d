import type { PaymentMethod } from './payment-methods.js';
import type { Payment, PaymentState } from './payment.js';

export type OrderAction = 'AUTH' | 'PURCHASE';

export interface Amount {
  currencyCode: string;
  value: number;
}

export interface Order {
  orderRef: string;
  outletId: string;
  merchantRef: string;
  tenantRef: string;
  action: OrderAction;
  amount: Amount;
  merchantOrderReference?: string;
  emailAddress?: string;
  createdAt: string;
}

/** An order's state follows its payment (SPEC §3): the latest payment's state. */
export function orderState(payments: Payment[]): PaymentState {
  const latest = [...payments].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
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
  state: PaymentState;
  paymentMethods: PaymentMethod[];
  payments: unknown[];
  createdAt: string;
}
