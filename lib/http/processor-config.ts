import * as z from 'zod';

/**
 * A merchant's processor as onboarding (SPEC 4.7) accepts it and DynamoDB keeps it: the
 * processor, the account at it, and ARNs of the secrets — never the secrets themselves (strict
 * objects refuse an inline member; no GET shows the ARNs either: a GET shows `name` and
 * `account`). `sandbox` names the sandbox acquirer: what every sandbox merchant uses, and a
 * production merchant only where the deployment lets production merchants reach it
 * (PRODUCTION_ACQUIRER=sandbox, non-production stages; functions/put-merchant-config/handler.ts).
 */
const secretsManagerArn = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;
const ssmParameterArn = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[A-Za-z0-9/_.-]+$/;
const secretArn = z
  .string()
  .max(2048)
  .refine((value) => secretsManagerArn.test(value) || ssmParameterArn.test(value), 'a Secrets Manager secret ARN or an SSM (SecureString) parameter ARN');

export const processorConfig = z.discriminatedUnion('name', [
  z.strictObject({ name: z.literal('sandbox') }),
  z.strictObject({
    name: z.literal('adyen'),
    /** The Adyen merchant account (merchantAccount in every request). */
    account: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[A-Za-z0-9_.-]+$/),
    /**
     * Secret JSON { apiKey, liveUrlPrefix? } (adyen/config.ts adyenCredentials). Required, but a
     * PUT of the merchant's current processor and account may leave it out: the stored one is
     * kept (GET never shows it; lib/core/merchants/processor-secrets.ts).
     */
    credentialsArn: secretArn.optional(),
    /** Secret holding the notification HMAC key(s), hex: required (kept likewise), notifications are how Adyen settles modifications. */
    notificationHmacKeyArn: secretArn.optional(),
  }),
  z.strictObject({
    name: z.literal('checkout_com'),
    /** The processing channel (pc_…). */
    account: z.string().regex(/^pc_\w{26}$/),
    /** Secret JSON { secretKey, urlPrefix?, sandbox? } (checkout-com/config.ts checkoutComCredentials). Required (kept likewise). */
    credentialsArn: secretArn.optional(),
    /** Checkout.com webhooks' signature key, when the merchant has them sent (not used by this adapter yet). */
    notificationHmacKeyArn: secretArn.optional(),
  }),
]);

export type ProcessorConfig = z.infer<typeof processorConfig>;

/** The processors a merchant may name (SPEC 4.7). */
export const PROCESSOR_NAMES = ['sandbox', 'adyen', 'checkout_com'] as const;
