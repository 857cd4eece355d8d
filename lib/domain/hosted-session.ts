export interface HostedSession {
  tokenHash: string;
  orderRef: string;
  outletId: string;
  merchantRef: string;
  tenantRef: string;
  /** Epoch seconds; also the DynamoDB TTL attribute. */
  expiresAt: number;
  createdAt: string;
}
