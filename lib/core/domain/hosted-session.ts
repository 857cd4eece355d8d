export interface HostedSession {
  tokenHash: string;
  orderRef: string;
  outletId: string;
  merchantRef: string;
  tenantRef: string;
  /** Epoch seconds; also the DynamoDB TTL attribute. */
  expiresAt: number;
  createdAt: string;
  /**
   * Copied from the order and the merchant when the session is minted, so that the page's
   * bootstrap (lib/http/checkout-page/bootstrap.ts) needs no other read: where the page sends the
   * shopper back (4.8), the shop's name for "Back to <shop>" (the merchant's dpaName), and what
   * a payment link's order is for (the link's description, 4.14; shown as text).
   */
  returnUrl?: string;
  cancelUrl?: string;
  shopName?: string;
  description?: string;
}
