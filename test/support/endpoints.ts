import type { InvokeOptions } from './invoke.js';
import type { SeededMerchant } from './seed.js';

export interface World extends SeededMerchant {
  orderRef: string;
  paymentRef: string;
}

type Handler = (event: any, context: any) => Promise<unknown>;

export interface EndpointCase {
  name: string;
  load: () => Promise<{ handler: Handler }>;
  /** A request that succeeds for a platform token with every permission. */
  request: (world: World) => InvokeOptions;
  access: { kind: 'any' } | { kind: 'platform' } | { kind: 'permission'; permission: string };
  /** The level at which scope is checked: which narrowed tokens must get a 404. */
  scope: 'none' | 'tenant' | 'merchant' | 'outlet' | 'order';
  successStatus: number;
  /**
   * Whether a hosted-session token of the world's order may call it (SPEC §1). Omitted means
   * refused (403 PERMISSION_DENIED), the service's default for every route.
   */
  sessionTokens?: 'allowed';
}

const paymentMethods = { paymentMethods: { CLICK_TO_PAY: { enabled: true } } };
const ordersPath = (w: World) => `/transactions/outlets/${w.outletId}/orders`;

/** Every issue-2 endpoint with one valid request each. The payment issue appends its own. */
export const ENDPOINTS: EndpointCase[] = [
  {
    name: '4.1 GET merchant config',
    load: () => import('../../functions/get-merchant-config/handler.js'),
    request: (w) => ({ method: 'GET', path: `/config/merchants/${w.merchantRef}/configs/vctp`, pathParameters: { merchantRef: w.merchantRef } }),
    access: { kind: 'any' },
    scope: 'merchant',
    successStatus: 200,
    sessionTokens: 'allowed',
  },
  {
    name: '4.2 GET encryption keys',
    load: () => import('../../functions/get-encryption-keys/handler.js'),
    request: () => ({ method: 'GET', path: '/config/configs/vctp/encryption-keys' }),
    access: { kind: 'permission', permission: 'VIEW_UCTP_WALLET_CERTIFICATE' },
    scope: 'none',
    successStatus: 200,
    sessionTokens: 'allowed',
  },
  {
    name: '4.5 PUT platform payment methods',
    load: () => import('../../functions/put-platform-payment-methods/handler.js'),
    request: () => ({ method: 'PUT', path: '/config/platform/configs/payment-methods', body: paymentMethods }),
    access: { kind: 'platform' },
    scope: 'none',
    successStatus: 200,
  },
  {
    name: '4.5 GET platform payment methods',
    load: () => import('../../functions/get-platform-payment-methods/handler.js'),
    request: () => ({ method: 'GET', path: '/config/platform/configs/payment-methods' }),
    access: { kind: 'platform' },
    scope: 'none',
    successStatus: 200,
  },
  {
    name: '4.6 POST tenant payment methods',
    load: () => import('../../functions/put-tenant-payment-methods/handler.js'),
    request: (w) => ({
      method: 'POST',
      path: `/config/tenants/${w.tenantRef}/configs/payment-methods`,
      pathParameters: { tenantRef: w.tenantRef },
      body: paymentMethods,
    }),
    access: { kind: 'platform' },
    scope: 'none',
    successStatus: 200,
  },
  {
    name: '4.6 GET tenant payment methods',
    load: () => import('../../functions/get-tenant-payment-methods/handler.js'),
    request: (w) => ({ method: 'GET', path: `/config/tenants/${w.tenantRef}/configs/payment-methods`, pathParameters: { tenantRef: w.tenantRef } }),
    access: { kind: 'platform' },
    scope: 'none',
    successStatus: 200,
  },
  {
    name: '4.7 PUT merchant config',
    load: () => import('../../functions/put-merchant-config/handler.js'),
    request: (w) => ({
      method: 'PUT',
      path: `/config/merchants/${w.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: w.merchantRef },
      body: {
        tenantRef: w.tenantRef,
        dpaId: 'dpa-demo',
        dpaClientId: 'dpa-client-demo',
        dpaName: 'Demo Shop',
        cardBrands: ['visa', 'mastercard'],
        locale: 'en_AE',
        outlets: [w.outletId, w.otherOutletId],
      },
    }),
    access: { kind: 'platform' },
    scope: 'none',
    successStatus: 200,
  },
  {
    name: '4.8 POST order',
    load: () => import('../../functions/create-order/handler.js'),
    request: (w) => ({
      method: 'POST',
      path: ordersPath(w),
      pathParameters: { outletId: w.outletId },
      body: { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } },
    }),
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    scope: 'outlet',
    successStatus: 201,
  },
  {
    name: '4.8 GET order',
    load: () => import('../../functions/get-order/handler.js'),
    request: (w) => ({
      method: 'GET',
      path: `${ordersPath(w)}/${w.orderRef}`,
      pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
    }),
    access: { kind: 'permission', permission: 'VIEW_ORDER' },
    scope: 'order',
    successStatus: 200,
    sessionTokens: 'allowed',
  },
  {
    name: '4.9 POST hosted session',
    load: () => import('../../functions/create-hosted-session/handler.js'),
    request: (w) => ({
      method: 'POST',
      path: `${ordersPath(w)}/${w.orderRef}/hosted-sessions`,
      pathParameters: { outletId: w.outletId, orderRef: w.orderRef },
    }),
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    scope: 'order',
    successStatus: 201,
  },
  {
    name: '4.14 POST payment link',
    load: () => import('../../functions/create-payment-link/handler.js'),
    request: (w) => ({
      method: 'POST',
      path: `/transactions/outlets/${w.outletId}/payment-links`,
      pathParameters: { outletId: w.outletId },
      body: { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } },
    }),
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    scope: 'outlet',
    successStatus: 201,
  },
];

/** A world whose merchant has a webhook configured and at least one event (`eventId`). */
export interface WebhookWorld extends World {
  eventId: string;
}

export interface MerchantWideEndpointCase {
  name: string;
  load: () => Promise<{ handler: Handler }>;
  /** A request that succeeds for a platform token. */
  request: (world: WebhookWorld) => InvokeOptions;
  successStatus: number;
}

const webhooksPath = (w: WebhookWorld) => `/config/merchants/${w.merchantRef}/configs/webhooks`;

/**
 * SPEC §1, 4.15: the merchant-wide resources — reached by a platform token, or MANAGE_WEBHOOKS
 * with the whole merchant in scope (never through one of its outlets).
 */
export const MERCHANT_WIDE_ENDPOINTS: MerchantWideEndpointCase[] = [
  {
    name: '4.15 GET webhook config',
    load: () => import('../../functions/get-webhook-config/handler.js'),
    request: (w) => ({ method: 'GET', path: webhooksPath(w), pathParameters: { merchantRef: w.merchantRef } }),
    successStatus: 200,
  },
  {
    name: '4.15 PUT webhook config',
    load: () => import('../../functions/put-webhook-config/handler.js'),
    request: (w) => ({ method: 'PUT', path: webhooksPath(w), pathParameters: { merchantRef: w.merchantRef }, body: { url: 'http://127.0.0.1:9/webhooks' } }),
    successStatus: 200,
  },
  {
    name: '4.15 POST rotate-secret',
    load: () => import('../../functions/rotate-webhook-secret/handler.js'),
    request: (w) => ({ method: 'POST', path: `${webhooksPath(w)}/rotate-secret`, pathParameters: { merchantRef: w.merchantRef } }),
    successStatus: 200,
  },
  {
    name: '4.15 GET events',
    load: () => import('../../functions/list-events/handler.js'),
    request: (w) => ({ method: 'GET', path: `/config/merchants/${w.merchantRef}/events`, pathParameters: { merchantRef: w.merchantRef } }),
    successStatus: 200,
  },
  {
    name: '4.15 POST redeliver',
    load: () => import('../../functions/redeliver-event/handler.js'),
    request: (w) => ({
      method: 'POST',
      path: `/config/merchants/${w.merchantRef}/events/${w.eventId}/redeliver`,
      pathParameters: { merchantRef: w.merchantRef, eventId: w.eventId },
    }),
    successStatus: 202,
  },
];
