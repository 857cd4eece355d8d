import type { Payment } from '../api.js';
import { brandName } from '../format.js';

/** What a result screen says about the order, whichever way it ended. */
export interface ResultDetails {
  merchantName: string;
  amountText: string;
  orderReference?: string;
  /** The reference is our order id (no merchant reference): shown smaller, in monospace. */
  orderReferenceIsId?: boolean;
  /** Hosted payment page: the shop the shopper returns to, and whether the page takes them there by itself. */
  shop?: { name: string; autoReturn: boolean };
}

export function paymentCard(payment: Payment): string | undefined {
  const method = payment.paymentMethod;
  const last = method?.panLastFour ?? method?.tokenLastFour;
  return last ? `${brandName(method?.brand)} •••• ${last}` : undefined;
}
