import * as z from 'zod';
import { threeDsRequestorSchema } from '../core/domain/three-ds-requestor.js';
import { DYNAMIC_DATA_TYPES } from '../core/checkout/dynamic-data.js';
import { PROCESSOR_NAMES } from './processor-config.js';

/**
 * The response bodies of SPEC §3–4, as strict schemas. They document the API (OpenAPI is
 * generated from them) and the tests parse real responses with them, so a field that is
 * not part of the contract (a lease id, the replay key, the payer's IP) cannot slip out.
 */
const amount = z.strictObject({ currencyCode: z.string().length(3), value: z.number().int().positive() });
const isoTime = z.iso.datetime();
const paymentState = z.enum(['STARTED', 'AUTHORISED', 'CAPTURED', 'AWAIT_3DS', 'FAILED', 'PARTIALLY_CAPTURED', 'REVERSED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
/**
 * `code`: our decline reason or the service's own code; `reason`: our fixed text for it;
 * `processorCode`: the processor's raw code (e.g. `adyen:12/51`), never its text (SPEC 4.16).
 */
const failure = z.strictObject({ code: z.string(), reason: z.string(), processorCode: z.string().max(64).optional() });
const operationState = z.enum(['PENDING', 'SUCCEEDED', 'FAILED']);
const operation = <K extends string>(refName: K) =>
  z.strictObject({ [refName]: z.string(), amount, state: operationState, at: isoTime, failure: failure.optional() } as Record<K, z.ZodString> & {
    amount: typeof amount;
    state: typeof operationState;
    at: typeof isoTime;
    failure: z.ZodOptional<typeof failure>;
  });
const zeroOrMore = z.strictObject({ currencyCode: z.string().length(3), value: z.number().int().nonnegative() });

export const paymentResource = z.strictObject({
  paymentRef: z.string(),
  orderRef: z.string(),
  outletId: z.string(),
  state: paymentState,
  amount,
  paymentMethod: z
    .strictObject({
      type: z.enum(['CLICK_TO_PAY', 'DIRECT_WALLET']),
      brand: z.string().optional(),
      tokenLastFour: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
      panLastFour: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
      expiry: z
        .string()
        .regex(/^\d{4}-\d{2}$/)
        .optional(),
      paymentAccountReference: z.string().optional(),
      /** The dynamic data type the credential came with (SPEC §4.3 step 6); never its value. */
      cryptogramType: z.enum(DYNAMIC_DATA_TYPES).optional(),
    })
    .optional(),
  eci: z
    .string()
    .regex(/^\d{2}$/)
    .optional(),
  /** `code`: the issuer's authorization code, absent when the processor reported none. */
  authorization: z.strictObject({ code: z.string().optional(), resultCode: z.string(), at: isoTime }).optional(),
  /**
   * Only in AWAIT_3DS: what the page does next (SPEC 4.10, 4.17). `method`: run the 3DS Method
   * (form-POST `threeDSMethodData` to `url` in a hidden iframe, 10 s), then 4.10
   * `{threeDSCompInd, browserInfo}`. `acsUrl` + `creq`: the challenge (form-POST `creq` to `acsUrl`
   * in a frame of `challengeWindowSize`), then 4.10 `{cres}`.
   */
  threeDs: z
    .strictObject({
      transactionId: z.string(),
      acsUrl: z.url().optional(),
      creq: z.string().optional(),
      challengeWindowSize: z.enum(['01', '02', '03', '04', '05']).optional(),
      method: z.strictObject({ url: z.url(), threeDSMethodData: z.string() }).optional(),
    })
    .optional(),
  /**
   * The cardholder authentication's evidence once it has an outcome (SPEC 4.17): the 3DS Server's,
   * the directory server's and the ACS's transaction ids, the protocol version, transStatus (and
   * transStatusReason, challengeCancel when refused), the ECI. Never the authentication value.
   */
  authentication: z
    .strictObject({
      transactionId: z.string(),
      dsTransactionId: z.string().optional(),
      acsTransactionId: z.string().optional(),
      protocolVersion: z.string().optional(),
      transStatus: z.string(),
      transStatusReason: z.string().optional(),
      challengeCancel: z.string().optional(),
      eci: z.string().optional(),
    })
    .optional(),
  failure: failure.optional(),
  /** Only when FAILED: whether the order can get a new payment (POST …/orders/{orderRef}/payments). */
  retryable: z.boolean().optional(),
  /** After authorization (SPEC §3, 4.11–4.13). */
  captures: z.array(operation('captureRef')).optional(),
  refunds: z.array(operation('refundRef')).optional(),
  reversal: z.strictObject({ reversalRef: z.string(), state: operationState, at: isoTime }).optional(),
  capturedAmount: zeroOrMore.optional(),
  refundedAmount: zeroOrMore.optional(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const orderResource = z.strictObject({
  orderRef: z.string(),
  outletId: z.string(),
  action: z.enum(['AUTH', 'PURCHASE']),
  amount,
  merchantOrderReference: z.string().optional(),
  emailAddress: z.string().optional(),
  /** Hosted payment page (4.8): where the page sends the shopper back. */
  returnUrl: z.url().optional(),
  cancelUrl: z.url().optional(),
  state: paymentState,
  paymentMethods: z.array(z.enum(['CLICK_TO_PAY', 'DIRECT_WALLET'])),
  payments: z.array(paymentResource),
  createdAt: isoTime,
});

/** The 201 of 4.8: with a returnUrl, also the hosted payment page to redirect the shopper to (a hosted session as in 4.9). */
export const createdOrderResource = orderResource.extend({
  checkoutUrl: z.url().optional(),
  checkoutExpiresAt: isoTime.optional(),
});

export const merchantConfigResource = z.strictObject({
  merchantRef: z.string(),
  tenantRef: z.string(),
  dpaId: z.string(),
  dpaClientId: z.string(),
  dpaName: z.string(),
  cardBrands: z.array(z.string()),
  locale: z.string(),
  environment: z.enum(['sandbox', 'production']),
  encryptionKeyId: z.string(),
  clickToPayEnabled: z.boolean(),
  directWalletEnabled: z.boolean(),
  threeDsPolicy: z.enum(['never', 'risk-based', 'always']),
  /** 4.7: the merchant's outlets. Absent for a hosted-session token (the page). */
  outlets: z.array(z.string()).optional(),
  /** 4.7: where return and cancel URLs may point (normalised origins). */
  /** Absent for a hosted-session token (the page): only the merchant's side reads the allow-list. */
  redirectOrigins: z.array(z.string()).optional(),
  /**
   * 4.7: which processor and account act for the merchant — never where its credentials are.
   * Absent when none was given (a sandbox merchant then uses the sandbox acquirer) and for a
   * hosted-session token.
   */
  processor: z.strictObject({ name: z.enum(PROCESSOR_NAMES), account: z.string().optional() }).optional(),
  /** 4.7 `threeDsRequestor` as onboarded (absent for a hosted-session token, and when none was given). */
  threeDsRequestor: threeDsRequestorSchema.optional(),
});

export const encryptionKeysResource = z.strictObject({
  encryptionKeyId: z.string(),
  keys: z.array(
    z.strictObject({
      kty: z.literal('RSA'),
      kid: z.string(),
      use: z.literal('enc'),
      alg: z.literal('RSA-OAEP-256'),
      n: z.string(),
      e: z.string(),
      status: z.enum(['current', 'previous']),
    }),
  ),
});

const enabled = z.strictObject({ enabled: z.boolean() });
export const paymentMethodsResource = z.strictObject({
  level: z.enum(['platform', 'tenant']),
  tenantRef: z.string().optional(),
  paymentMethods: z.strictObject({ CLICK_TO_PAY: enabled, DIRECT_WALLET: enabled }),
  updatedAt: isoTime.optional(),
});

export const hostedSessionResource = z.strictObject({
  sessionToken: z.string(),
  expiresAt: isoTime,
  checkoutUrl: z.url(),
});

/** SPEC 4.14: a payment link; `state` as of the read, `orderRef` once someone started paying. */
export const paymentLinkResource = z.strictObject({
  linkRef: z.string().regex(/^pl_[A-Za-z0-9_-]{22}$/),
  url: z.url(),
  state: z.enum(['ACTIVE', 'PAID', 'EXPIRED', 'CANCELLED']),
  action: z.enum(['AUTH', 'PURCHASE']),
  amount,
  description: z.string().optional(),
  merchantOrderReference: z.string().optional(),
  returnUrl: z.string().optional(),
  orderRef: z.string().optional(),
  expiresAt: isoTime,
  createdAt: isoTime,
});

export const problemResource = z.strictObject({
  type: z.literal('about:blank'),
  status: z.number().int(),
  title: z.string(),
  code: z.string(),
  detail: z.string(),
  requestId: z.string().optional(),
  errors: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
});
