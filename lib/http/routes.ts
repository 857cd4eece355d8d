/**
 * The one route table: every function of the service, keyed by its name (the Lambda's, the
 * IAM role's, the logs', the OpenAPI operationId's). Everything else is derived from it:
 *
 * - serverless.yml's functions and events (infra/serverless/functions.cjs loads this file
 *   with tsx's CommonJS API), their IAM roles and which of them get the Idempotency-Key table
 *   (infra/serverless/iam.cjs), the sandbox routes' throttling (infra/serverless/http-api.cjs);
 * - the handler's edge options: each handler names its entry, `apiHandler(routes.getOrder, …)`
 *   (lib/http/api-handler.ts), which brings its access requirement, session-token policy,
 *   read-ahead and Idempotency-Key opt-in;
 * - the fallback's 404/405 answers (lib/http/route-table.ts);
 * - the OpenAPI operations (infra/openapi/generate.ts): paths, methods, operationIds,
 *   Idempotency-Key and the session-token note.
 *
 * Data only, type imports only: it is read at package time by the infrastructure code and
 * bundled into every API function, so it must load nothing.
 */
import type { AccessRequirement, SessionTokenPolicy } from './types.js';

/**
 * The IAM roles, one per kind of function; infra/serverless/iam.cjs grants each exactly what
 * its functions call (docs/operating/deploy.md, "What gets created").
 */
export const ROLES = [
  'public',
  'sandboxAcs',
  'sandboxSrc',
  'checkoutPage',
  'configRead',
  'configWrite',
  'orders',
  'paymentLinks',
  'payLinkPage',
  'payments',
  'paymentsDecrypt',
  'lifecycle',
  'webhookConfig',
  'webhookEvents',
  'webhookDelivery',
  'processorNotifications',
] as const;
export type Role = (typeof ROLES)[number];

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
/** `METHOD /path`, path parameters as `{name}` (what HTTP APIs expect). */
export type RouteKey = `${HttpMethod} /${string}`;

/** What the middy edge takes from an entry (lib/http/api-handler.ts). */
export interface ApiRouteOptions {
  /** What the caller's token must hold before the handler runs. */
  access: AccessRequirement;
  /** Hosted-session tokens are refused (403) unless the route says `'allowed'` (SPEC §1). */
  sessionTokens?: SessionTokenPolicy;
  /**
   * `'payment'`: the path names a payment (`orderRef`, `paymentRef`) and its use case reads it
   * first; a hosted-session token's lookup then reads the order and the payment in the same
   * BatchGetItem (one round trip fewer).
   */
  readAhead?: 'payment';
  /**
   * The route honours an Idempotency-Key header (SPEC 4.13, lib/http/idempotency.ts): its
   * handler is built with idempotentApiHandler (the types refuse apiHandler) and its role gets
   * the idempotency table (infra/serverless/iam.cjs).
   */
  idempotency?: 'supported';
}

export interface RouteTableEntry extends Partial<ApiRouteOptions> {
  /** functions/<dir>/handler.ts */
  dir: string;
  /** The IAM role the function runs with. */
  role: Role;
  /** HTTP API routes; a function under /sandbox/ has only /sandbox/ routes (deployed only with the sandbox). */
  routes: readonly RouteKey[];
  /** The `$default` route: whatever no route matched (404/405 from this table). */
  catchAll?: true;
  /** Extra files shipped with the function, `dir/**`; each must match a file at package time. */
  package?: { patterns: readonly string[] };
  /**
   * Functions without routes: `schedule` an EventBridge rate, `stream` the logical id of the
   * table whose stream feeds the function (only items with a due `dueAt` pass the filter).
   */
  triggers?: { schedule?: string; stream?: string };
}

const MANAGE_WEBHOOKS = { kind: 'platformOrPermission', permission: 'MANAGE_WEBHOOKS' } as const;

export const routes = {
  getMerchantConfig: {
    dir: 'get-merchant-config',
    role: 'configRead',
    routes: ['GET /config/merchants/{merchantRef}/configs/vctp'],
    access: { kind: 'any' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
  },
  putMerchantConfig: {
    dir: 'put-merchant-config',
    role: 'configWrite',
    routes: ['PUT /config/merchants/{merchantRef}/configs/vctp'],
    access: { kind: 'platform' },
  },
  getWebhookConfig: {
    dir: 'get-webhook-config',
    role: 'configRead',
    routes: ['GET /config/merchants/{merchantRef}/configs/webhooks'],
    access: MANAGE_WEBHOOKS,
  },
  putWebhookConfig: {
    dir: 'put-webhook-config',
    role: 'webhookConfig',
    routes: ['PUT /config/merchants/{merchantRef}/configs/webhooks'],
    access: MANAGE_WEBHOOKS,
  },
  rotateWebhookSecret: {
    dir: 'rotate-webhook-secret',
    role: 'webhookConfig',
    routes: ['POST /config/merchants/{merchantRef}/configs/webhooks/rotate-secret'],
    access: MANAGE_WEBHOOKS,
    idempotency: 'supported',
  },
  getEncryptionKeys: {
    dir: 'get-encryption-keys',
    role: 'configRead',
    routes: ['GET /config/configs/vctp/encryption-keys'],
    access: { kind: 'permission', permission: 'VIEW_UCTP_WALLET_CERTIFICATE' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
  },
  getPlatformPaymentMethods: {
    dir: 'get-platform-payment-methods',
    role: 'configRead',
    routes: ['GET /config/platform/configs/payment-methods'],
    access: { kind: 'platform' },
  },
  putPlatformPaymentMethods: {
    dir: 'put-platform-payment-methods',
    role: 'configWrite',
    routes: ['PUT /config/platform/configs/payment-methods', 'POST /config/platform/configs/payment-methods'],
    access: { kind: 'platform' },
    idempotency: 'supported',
  },
  getTenantPaymentMethods: {
    dir: 'get-tenant-payment-methods',
    role: 'configRead',
    routes: ['GET /config/tenants/{tenantRef}/configs/payment-methods'],
    access: { kind: 'platform' },
  },
  putTenantPaymentMethods: {
    dir: 'put-tenant-payment-methods',
    role: 'configWrite',
    routes: ['PUT /config/tenants/{tenantRef}/configs/payment-methods', 'POST /config/tenants/{tenantRef}/configs/payment-methods'],
    access: { kind: 'platform' },
    idempotency: 'supported',
  },
  createOrder: {
    dir: 'create-order',
    role: 'orders',
    routes: ['POST /transactions/outlets/{outletId}/orders'],
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported',
  },
  getOrder: {
    dir: 'get-order',
    role: 'orders',
    routes: ['GET /transactions/outlets/{outletId}/orders/{orderRef}'],
    access: { kind: 'permission', permission: 'VIEW_ORDER' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
  },
  createHostedSession: {
    dir: 'create-hosted-session',
    role: 'orders',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/hosted-sessions'],
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported',
  },
  createPayment: {
    dir: 'create-payment',
    role: 'orders',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments'],
    access: { kind: 'sessionOrPermission', permission: 'CREATE_ORDER' },
    sessionTokens: 'allowed', // the hosted page offers another card after a decline
    idempotency: 'supported',
  },
  createPaymentLink: {
    dir: 'create-payment-link',
    role: 'paymentLinks',
    routes: ['POST /transactions/outlets/{outletId}/payment-links'],
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported',
  },
  getPaymentLink: {
    dir: 'get-payment-link',
    role: 'paymentLinks',
    routes: ['GET /transactions/outlets/{outletId}/payment-links/{linkRef}'],
    access: { kind: 'permission', permission: 'VIEW_ORDER' },
  },
  cancelPaymentLink: {
    dir: 'cancel-payment-link',
    role: 'paymentLinks',
    routes: ['POST /transactions/outlets/{outletId}/payment-links/{linkRef}/cancel'],
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported', // a retried cancel answers its 200 again
  },
  payLinkPage: {
    dir: 'pay-link-page',
    role: 'payLinkPage',
    routes: ['GET /pay/{linkRef}'],
  },
  payClickToPay: {
    dir: 'pay-click-to-pay',
    role: 'paymentsDecrypt',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/click-to-pay'],
    access: { kind: 'permission', permission: 'CREATE_AUTHORIZATION' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
    readAhead: 'payment',
    idempotency: 'supported',
  },
  payDirect: {
    dir: 'pay-direct',
    role: 'payments',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/click-to-pay/direct'],
    access: { kind: 'permission', permission: 'CREATE_AUTHORIZATION' },
    idempotency: 'supported',
  },
  complete3ds: {
    dir: 'complete-3ds',
    role: 'paymentsDecrypt',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/3ds'],
    access: { kind: 'permission', permission: 'CREATE_AUTHORIZATION' },
    sessionTokens: 'allowed', // the hosted page (SPEC §1)
    readAhead: 'payment',
    idempotency: 'supported',
  },
  createCapture: {
    dir: 'create-capture',
    role: 'lifecycle',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/captures'],
    access: { kind: 'permission', permission: 'CREATE_CAPTURE' },
    idempotency: 'supported',
  },
  createReversal: {
    dir: 'create-reversal',
    role: 'lifecycle',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/reversals'],
    access: { kind: 'permission', permission: 'CREATE_REVERSAL' },
    idempotency: 'supported',
  },
  createRefund: {
    dir: 'create-refund',
    role: 'lifecycle',
    routes: ['POST /transactions/outlets/{outletId}/orders/{orderRef}/payments/{paymentRef}/refunds'],
    access: { kind: 'permission', permission: 'CREATE_REFUND' },
    idempotency: 'supported',
  },
  // The sandbox ACS and Click to Pay network: stand-ins for the issuer and the card network,
  // not the service's API (no bearer token, no Idempotency-Key); only on stages with the sandbox.
  sandboxAcs: {
    dir: 'sandbox-acs',
    role: 'sandboxAcs',
    routes: ['POST /sandbox/3ds/challenge'],
  },
  sandboxSrc: {
    dir: 'sandbox-src',
    role: 'sandboxSrc',
    routes: [
      'POST /sandbox/src/init',
      'POST /sandbox/src/identity-lookup',
      'POST /sandbox/src/otp/resend',
      'POST /sandbox/src/otp/validate',
      'POST /sandbox/src/cards',
      'POST /sandbox/src/cards/enroll',
      'POST /sandbox/src/checkout',
      'POST /sandbox/src/sign-out',
      'POST /sandbox/src/confirmations',
      'POST /sandbox/src/confirmations/search',
    ],
  },
  // The ACS's form POST in the shopper's browser: it renders a hand-over page, reads and
  // changes nothing, so there is nothing to make idempotent.
  threeDsNotification: {
    dir: 'three-ds-notification',
    role: 'public',
    routes: ['POST /checkout/3ds-notification'],
  },
  // Adyen's notification webhook (SPEC 4.16): no bearer token; each item's HMAC is checked with
  // the merchant's key, and each report is kept once in the merchant's inbox before it is applied.
  adyenNotifications: {
    dir: 'adyen-notifications',
    role: 'processorNotifications',
    routes: ['POST /processors/adyen/notifications'],
  },
  // The 3DS Method's completion, form-POSTed by the ACS's page in a hidden iframe: like the CRes
  // notification it renders a hand-over page and reads and changes nothing.
  threeDsMethodNotification: {
    dir: 'three-ds-method-notification',
    role: 'public',
    routes: ['POST /checkout/3ds-method-notification'],
  },
  checkoutPage: {
    dir: 'checkout-page',
    role: 'checkoutPage',
    routes: ['GET /checkout', 'GET /checkout/assets/{file}'],
    package: { patterns: ['web/dist/**'] },
  },
  listEvents: {
    dir: 'list-events',
    role: 'webhookEvents',
    routes: ['GET /config/merchants/{merchantRef}/events'],
    access: MANAGE_WEBHOOKS,
  },
  redeliverEvent: {
    dir: 'redeliver-event',
    role: 'webhookEvents',
    routes: ['POST /config/merchants/{merchantRef}/events/{eventId}/redeliver'],
    access: MANAGE_WEBHOOKS,
    idempotency: 'supported',
  },
  webhookDelivery: {
    dir: 'webhook-delivery',
    role: 'webhookDelivery',
    routes: [],
    triggers: { schedule: 'rate(1 minute)', stream: 'OrdersTable' },
  },
  fallback: {
    dir: 'fallback',
    role: 'public',
    routes: [],
    catchAll: true,
  },
} as const satisfies Record<string, RouteTableEntry>;

export type RouteName = keyof typeof routes;

/** The table as a list, each entry with its name. */
export function routeTable(): (RouteTableEntry & { name: RouteName })[] {
  return (Object.entries(routes) as [RouteName, RouteTableEntry][]).map(([name, entry]) => ({ name, ...entry }));
}
