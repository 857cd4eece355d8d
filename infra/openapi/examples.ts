/**
 * One example per named schema that a client author looks at first (request bodies and the main
 * responses). test/unit/openapi.test.ts parses each with its own zod schema, so an example that
 * stops matching the code fails the build instead of misleading a reader.
 */
import type { SchemaName } from './components.js';

const at = '2026-11-23T10:15:30.000Z';
const later = '2026-11-23T10:45:30.000Z';
const amount = { currencyCode: 'AED', value: 1000 };
const ids = { orderRef: '0f4c5a8e-2f0d-4a4e-9f3a-6d1b2c3e4f50', outletId: 'demo-outlet', paymentRef: '7a1e9c2b-5d3f-4b8a-a6e0-1c2d3e4f5a6b' };

/** The demo merchant as onboarded (MerchantOnboardingRequest) and as configured (MerchantConfig). */
const demoMerchant = {
  tenantRef: 'demo-tenant',
  dpaId: 'dpa-demo-0001',
  dpaClientId: 'client-demo-0001',
  dpaName: 'Demo Shop',
  cardBrands: ['visa', 'mastercard'],
  locale: 'en_AE',
  environment: 'sandbox',
};

const authorisedPayment = {
  ...ids,
  state: 'AUTHORISED',
  amount,
  paymentMethod: {
    type: 'CLICK_TO_PAY',
    brand: 'VISA',
    tokenLastFour: '3478',
    panLastFour: '1111',
    expiry: '2029-12',
    paymentAccountReference: 'V0010013019289134367857381930',
  },
  eci: '05',
  authorization: { code: 'A1B2C3', resultCode: '00', at },
  createdAt: at,
  updatedAt: at,
};

export const EXAMPLES: Partial<Record<SchemaName, unknown>> = {
  CreateOrderRequest: {
    action: 'AUTH',
    amount,
    merchantOrderReference: 'cart-4711',
    emailAddress: 'shopper@example.com',
    returnUrl: 'https://shop.example.com/orders/4711/done',
    cancelUrl: 'https://shop.example.com/cart',
  },
  Order: {
    orderRef: ids.orderRef,
    outletId: ids.outletId,
    action: 'AUTH',
    amount,
    merchantOrderReference: 'cart-4711',
    state: 'STARTED',
    paymentMethods: ['CLICK_TO_PAY'],
    payments: [{ ...ids, state: 'STARTED', amount, createdAt: at, updatedAt: at }],
    createdAt: at,
  },
  CreatedOrder: {
    orderRef: ids.orderRef,
    outletId: ids.outletId,
    action: 'AUTH',
    amount,
    merchantOrderReference: 'cart-4711',
    returnUrl: 'https://shop.example.com/orders/4711/done',
    cancelUrl: 'https://shop.example.com/cart',
    state: 'STARTED',
    paymentMethods: ['CLICK_TO_PAY'],
    payments: [{ ...ids, state: 'STARTED', amount, createdAt: at, updatedAt: at }],
    createdAt: at,
    checkoutUrl: 'http://localhost:3000/checkout?session=hs_3q2-7wX9bPz0aYcD1eF4gH5iJ6kL7mN8oP9qR0sT1uV',
    checkoutExpiresAt: later,
  },
  HostedSession: {
    sessionToken: 'hs_3q2-7wX9bPz0aYcD1eF4gH5iJ6kL7mN8oP9qR0sT1uV',
    expiresAt: later,
    checkoutUrl: 'http://localhost:3000/checkout?session=hs_3q2-7wX9bPz0aYcD1eF4gH5iJ6kL7mN8oP9qR0sT1uV',
  },
  ClickToPayRequest: {
    checkoutResponse: {
      actionCode: 'SUCCESS',
      checkoutResponse: 'eyJhbGciOiJSUzI1NiIsImtpZCI6InNhbmRib3gtcnMyNTYifQ.eyJzcmNDb3JyZWxhdGlvbklkIjoi4oCmIn0.c2lnbmF0dXJl',
    },
  },
  Payment: authorisedPayment,
  ThreeDsRequest: { cres: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEyMyJ9' },
  OperationRequest: { amount: { currencyCode: 'AED', value: 400 } },
  Problem: {
    type: 'about:blank',
    status: 400,
    title: 'Bad Request',
    code: 'INVALID_REQUEST',
    detail: 'The request is invalid.',
    requestId: 'c6f1a1de-8e0b-4f4e-9a55-2b7d1f0e9c3a',
    errors: [{ path: 'amount.value', message: 'Too small: expected number to be >0' }],
  },
  MerchantOnboardingRequest: {
    ...demoMerchant,
    threeDsPolicy: 'risk-based',
    outlets: ['demo-outlet'],
    redirectOrigins: ['https://shop.example.com'],
  },
  MerchantConfig: {
    merchantRef: 'demo-merchant',
    ...demoMerchant,
    encryptionKeyId: 'hVx7Qw0m1tJ0XoZbDq8wVnJ0t3V3m7o0h6fXk6b3Q4E',
    clickToPayEnabled: true,
    directWalletEnabled: false,
    threeDsPolicy: 'risk-based',
    outlets: ['demo-outlet'],
    redirectOrigins: ['https://shop.example.com'],
  },
  PaymentMethodsRequest: { paymentMethods: { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: false } } },
  PaymentMethods: {
    level: 'tenant',
    tenantRef: 'demo-tenant',
    paymentMethods: { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: false } },
    updatedAt: at,
  },
  CreatePaymentLinkRequest: { action: 'AUTH', amount, description: 'Invoice 42', merchantOrderReference: 'INV-42', expiresAt: '2026-11-30T10:15:30.000Z' },
  PaymentLink: {
    linkRef: 'pl_3q2-7wQh0V9xYbLk4Zt1cA',
    url: 'https://pay.example.com/pay/pl_3q2-7wQh0V9xYbLk4Zt1cA',
    state: 'ACTIVE',
    action: 'AUTH',
    amount,
    description: 'Invoice 42',
    merchantOrderReference: 'INV-42',
    expiresAt: '2026-11-30T10:15:30.000Z',
    createdAt: at,
  },
  WebhookConfigRequest: { url: 'https://shop.example.com/hooks/click-to-pay', enabled: true },
  WebhookConfigWithSecret: {
    url: 'https://shop.example.com/hooks/click-to-pay',
    enabled: true,
    signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4tXZw3dJ4Lc=',
  },
};

/** The answer to retry after `Retry-After` seconds (components/responses/RetryableProblem). */
export const RETRYABLE_PROBLEM_EXAMPLE = {
  type: 'about:blank',
  status: 503,
  title: 'Service Unavailable',
  code: 'DEPENDENCY_UNAVAILABLE',
  detail: 'A dependency is temporarily unavailable; retry later.',
  requestId: 'c6f1a1de-8e0b-4f4e-9a55-2b7d1f0e9c3a',
};
