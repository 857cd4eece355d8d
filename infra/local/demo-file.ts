/** What `npm start` writes to <DATA_DIR>/demo.json, for people, tools and tests. */
export interface DemoFile {
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  orderRef: string;
  checkoutUrl: string;
  baseUrl: string;
  tokens: { platform: string; tenant: string };
  local: { dynamoEndpoint: string; kmsEndpoint: string; sessionsTable: string; ordersTable: string };
}
