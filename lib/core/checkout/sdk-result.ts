/**
 * The body of POST …/click-to-pay (SPEC §4.3 step 1): `{ checkoutResponse: <SDK result> }`,
 * where the SDK result is the object the Click to Pay SDK's `checkout()` resolved with,
 * passed on unmodified. Only its shape is checked here; the JWS inside is verified by
 * `verifyCheckoutJws`.
 */
import * as z from 'zod';
import { browserInfoSchema } from '../domain/browser-info.js';
import { CheckoutPayloadInvalidError, InvalidRequestError, type FieldIssue } from '../errors.js';

/** SPEC §6. The JWS is pure ASCII (base64url and dots), so characters equal bytes. */
export const MAX_JWS_LENGTH = 32 * 1024;

/** SPEC §4.3 step 1: Visa's SDK says `SUCCESS`, Mastercard's says `COMPLETE`. */
const COMPLETED_ACTION_CODES: ReadonlySet<string> = new Set(['SUCCESS', 'COMPLETE']);

/**
 * Action codes are short upper-case words (`SUCCESS`, `CANCEL`, `CHANGE_CARD`…). Pinning
 * the format is what makes it safe to echo one back in an error detail.
 */
const actionCode = z.string().regex(/^[A-Z_]{1,40}$/);

/**
 * Decision: a JWS over 32 KiB is a schema violation of the request (400 INVALID_REQUEST,
 * reported at `checkoutResponse.checkoutResponse`), caught before any crypto runs.
 * `verifyCheckoutJws` enforces the same limit again (422 CHECKOUT_SIGNATURE_INVALID) for
 * callers that reach it without this schema.
 */
const jws = z.string().min(1).max(MAX_JWS_LENGTH);

/**
 * Loose: the SDK result is passed through unmodified, and networks add fields (`headers`,
 * `network`, `idToken`, masked consumer data…) that we neither need nor want to reject.
 * `checkoutResponse` is optional at this level because a cancelled or failed checkout has
 * no JWS; it is required (below) exactly when the action code says the checkout completed.
 */
const sdkResultSchema = z
  .looseObject({
    actionCode: actionCode.optional(),
    checkoutActionCode: actionCode.optional(),
    checkoutResponse: jws.optional(),
    headers: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((result, ctx) => {
    const hasVisa = result.actionCode !== undefined;
    const hasMastercard = result.checkoutActionCode !== undefined;
    if (hasVisa === hasMastercard) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Exactly one of actionCode (Visa) or checkoutActionCode (Mastercard) is required',
      });
      return;
    }
    const code = (result.actionCode ?? result.checkoutActionCode) as string;
    if (COMPLETED_ACTION_CODES.has(code) && result.checkoutResponse === undefined) {
      ctx.addIssue({ code: 'custom', path: ['checkoutResponse'], message: 'Required when the checkout completed' });
    }
  });

/**
 * The whole request body. Strict: anything besides `checkoutResponse` and `browserInfo` is a
 * client bug. The unknown-key message is fixed because zod's default names the keys, and a key
 * is input. `browserInfo` (SPEC 4.17): the shopper's browser, for a production step-up's AReq —
 * the hosted page always sends it; a payment that must step up through a 3DS Server without it
 * is 400 (lib/core/payments/three-ds/step-up.ts).
 */
export const checkoutRequestSchema = z.strictObject(
  { checkoutResponse: sdkResultSchema, browserInfo: browserInfoSchema.optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unrecognized field' : undefined) },
);

export type CheckoutRequestBody = z.output<typeof checkoutRequestSchema>;

export interface CheckoutRequest {
  jws: string;
  actionCode: string;
  /**
   * From the shape alone (`actionCode` → `visa`, `checkoutActionCode` → `mastercard`, the
   * NETWORK_JWKS_URLS names): the network whose keys are searched first. A hint, not trusted:
   * the network recorded is the one whose key verified the JWS.
   */
  network?: 'visa' | 'mastercard';
}

/**
 * Validates the body and returns the JWS to verify. Throws `InvalidRequestError` (400) for
 * a schema violation and `CheckoutPayloadInvalidError` (422) when the consumer did not
 * complete the checkout.
 */
export function parseCheckoutRequest(body: unknown): CheckoutRequest {
  const parsed = checkoutRequestSchema.safeParse(body);
  if (!parsed.success) {
    // zod 4 issue messages never include the input value, so they are safe to return.
    const errors: FieldIssue[] = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw new InvalidRequestError('The request body is invalid.', { errors });
  }
  return completedCheckout(parsed.data);
}

/**
 * The JWS of a body the HTTP layer already validated with `checkoutRequestSchema` (the
 * payment path parses the body once); 422 when the consumer did not complete the checkout.
 */
export function completedCheckout(body: CheckoutRequestBody): CheckoutRequest {
  const result = body.checkoutResponse;
  const network = result.actionCode !== undefined ? 'visa' : 'mastercard';
  const code = (result.actionCode ?? result.checkoutActionCode) as string;
  if (!COMPLETED_ACTION_CODES.has(code)) {
    throw new CheckoutPayloadInvalidError(`The checkout was not completed (action code ${code}).`, {
      cause: new Error(`non-completed action code from ${network} SDK`),
    });
  }
  // The refinement above guarantees a JWS whenever the action code is a completed one.
  return { jws: result.checkoutResponse as string, actionCode: code, network };
}
