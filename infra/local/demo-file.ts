/** What `npm start` writes to <DATA_DIR>/demo.json, for people, tools and tests. */
export interface DemoFile {
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  orderRef: string;
  checkoutUrl: string;
  /** The demo payment link (SPEC 4.14) the banner prints. */
  paymentLinkUrl: string;
  baseUrl: string;
  tokens: { platform: string; tenant: string };
  /** With PROCESSOR_FAKES=1: one production demo merchant per processor fake (infra/local/processor-fakes.ts). */
  processors?: Record<'adyen' | 'checkout_com', { merchantRef: string; outletId: string; processorUrl: string }>;
  local: {
    dynamoEndpoint: string;
    kmsEndpoint: string;
    sessionsTable: string;
    ordersTable: string;
    /** The sandbox's own state: its acquirer's operations, ACS transactions, SRC sessions (docs/sandbox.md). */
    sandboxTable: string;
    /** The local dependencies' processes (SPEC §7): freeze one with kill -STOP <pid>. */
    dynamodb: LocalProcess & { engine: string };
    kms: LocalProcess;
    /** serverless-offline's pid; `port` is the edge in front of it (CORS as deployed), `offlinePort` its own. */
    api: { pid: number; port: number; offlinePort: number };
    /** Where the sandbox ACS is served: another origin than the page, as a real ACS is. */
    sandboxAcsBaseUrl: string;
    /** LOCAL_THREE_DS_SERVER=fake: the fake 3DS Server's API and its ACS origin (production step-ups). */
    threeDsServer?: { apiUrl: string; acsUrl: string };
  };
}

export interface LocalProcess {
  name: string;
  pid: number;
  port: number;
  endpoint: string;
  restarts: number;
}
