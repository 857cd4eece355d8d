import { z } from 'zod';

/**
 * A merchant's processor as onboarding (SPEC 4.7) accepts it and DynamoDB keeps it: the
 * processor, the account at it, and ARNs of the secrets — never the secrets themselves (no GET
 * shows them either; a GET may show `name` and `account`). PROPOSED for the onboarding schema
 * (docs/design/processors.md "Merchant configuration"); core wires it into lib/domain/merchant.
 */
const secretsManagerArn = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;
const ssmParameterArn = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[A-Za-z0-9/_.-]+$/;
const secretArn = z
  .string()
  .max(2048)
  .refine((value) => secretsManagerArn.test(value) || ssmParameterArn.test(value), 'a Secrets Manager secret ARN or an SSM (SecureString) parameter ARN');

export const processorConfig = z.discriminatedUnion('name', [
  z.strictObject({
    name: z.literal('adyen'),
    /** The Adyen merchant account (merchantAccount in every request). */
    account: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[A-Za-z0-9_.-]+$/),
    /** Secret JSON { apiKey, liveUrlPrefix? } (adyen/config.ts adyenCredentials). */
    credentialsArn: secretArn,
    /** Secret holding the notification HMAC key(s), hex: required, notifications are how Adyen settles modifications. */
    notificationHmacKeyArn: secretArn,
  }),
  z.strictObject({
    name: z.literal('checkout_com'),
    /** The processing channel (pc_…). */
    account: z.string().regex(/^pc_\w{26}$/),
    /** Secret JSON { secretKey, urlPrefix?, sandbox? } (checkout-com/config.ts checkoutComCredentials). */
    credentialsArn: secretArn,
    /** Checkout.com webhooks' signature key, when the merchant has them sent (not used by this adapter yet). */
    notificationHmacKeyArn: secretArn.optional(),
  }),
]);

export type ProcessorConfig = z.infer<typeof processorConfig>;

/** What a GET may show of it: which processor and account, never where the secrets are. */
export function publicProcessorView(config: ProcessorConfig): { name: ProcessorConfig['name']; account: string } {
  return { name: config.name, account: config.account };
}
