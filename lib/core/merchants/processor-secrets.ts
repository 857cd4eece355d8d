import type { MerchantProcessor } from '../domain/merchant.js';
import { InvalidRequestError } from '../errors.js';

/**
 * The secrets a processor needs by ARN (SPEC 4.7): a real processor its credentials, Adyen also
 * the notification HMAC key (its notifications are how Adyen settles modifications).
 */
const REQUIRED_SECRETS: Readonly<Record<string, readonly ('credentialsArn' | 'notificationHmacKeyArn')[]>> = {
  adyen: ['credentialsArn', 'notificationHmacKeyArn'],
  checkout_com: ['credentialsArn'],
};

/**
 * 4.7 takes back the body 4.1 answered (GET-modify-PUT), and 4.1 never shows where a processor's
 * secrets are: a PUT that names the merchant's current processor and account without an ARN
 * keeps the stored one. Anything else must name its ARNs — a new processor, another account (a
 * secret belongs to one account), a new merchant — else 400 naming the missing field.
 */
export function withKeptSecrets(requested: MerchantProcessor | undefined, stored: MerchantProcessor | undefined): MerchantProcessor | undefined {
  if (!requested) return undefined;
  const sameAccount = stored !== undefined && stored.name === requested.name && stored.account === requested.account;
  const kept: MerchantProcessor = { ...requested };
  const missing: string[] = [];
  for (const field of REQUIRED_SECRETS[requested.name] ?? []) {
    if (kept[field] !== undefined) continue;
    if (sameAccount && stored[field] !== undefined) kept[field] = stored[field];
    else missing.push(field);
  }
  // An optional secret (Checkout.com's webhook key) is kept the same way when it is not named.
  if (sameAccount && kept.notificationHmacKeyArn === undefined && stored.notificationHmacKeyArn !== undefined) {
    kept.notificationHmacKeyArn = stored.notificationHmacKeyArn;
  }
  if (missing.length > 0) {
    throw new InvalidRequestError('The request is invalid.', {
      errors: missing.map((field) => ({
        path: `processor.${field}`,
        message: 'Required: the ARN of the secret (kept from the current configuration only for the same processor and account)',
      })),
    });
  }
  return kept;
}
