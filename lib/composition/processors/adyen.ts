import { AdyenProcessor } from '../../adapters/processors/adyen/adapter.js';
import { adyenAdapterConfig, adyenCheckoutBaseUrl, adyenCredentials } from '../../adapters/processors/adyen/config.js';
import type { AdyenNotes } from '../../adapters/processors/adyen/notes.js';
import type { NotificationItem } from '../../adapters/processors/adyen/notifications/parse.js';
import type { MerchantConfig, MerchantProcessor } from '../../core/domain/merchant.js';
import type { Authorizer } from '../../core/ports/authorizer.js';
import { paymentConfig } from '../config/payment-config.js';
import { serviceConfig } from '../config/service-config.js';
import { processorInbox } from '../processor-inbox.js';
import { secretSource } from '../secrets.js';
import { parsedSecret } from './parsed-secret.js';

/**
 * An Adyen merchant's adapter (loaded only for a merchant whose processor is Adyen): its API key
 * from the credentials secret, its merchant account, and its notes — where each reference lives
 * and what Adyen's notifications told (the inbox), scoped to the merchant.
 */
export async function adyenAuthorizer(merchant: MerchantConfig & { processor: MerchantProcessor }): Promise<Authorizer> {
  const { processor } = merchant;
  const credentials = parsedSecret(
    await secretSource.read(processor.credentialsArn!),
    adyenCredentials,
    'Adyen credentials: {apiKey, liveUrlPrefix?, baseUrl?}',
  );
  const config = adyenAdapterConfig.safeParse({
    baseUrl: adyenCheckoutBaseUrl(credentials),
    apiKey: credentials.apiKey,
    merchantAccount: processor.account,
    returnUrl: returnUrlOf(merchant),
    timeoutMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
  });
  if (!config.success) throw new Error('the Adyen adapter configuration is invalid (base URL, account or return URL)');
  return new AdyenProcessor(config.data, notesOf(merchant.merchantRef));
}

/**
 * v71 requires a returnUrl even for a payment that never redirects (it carries its authentication,
 * so Adyen never sends the shopper anywhere): the hosted page's address (PUBLIC_BASE_URL), else
 * the merchant's first allowed origin.
 */
function returnUrlOf(merchant: MerchantConfig): string {
  if (serviceConfig.PUBLIC_BASE_URL) return `${serviceConfig.PUBLIC_BASE_URL.replace(/\/+$/, '')}/checkout`;
  const origin = merchant.redirectOrigins?.[0];
  if (!origin) throw new Error('Adyen needs a returnUrl: set PUBLIC_BASE_URL (publicBaseUrl) or give the merchant a redirect origin');
  return origin;
}

function notesOf(merchantRef: string): AdyenNotes {
  return {
    recordReference: (reference, location, signal) => processorInbox.recordLocation(merchantRef, reference, location, signal),
    reported: async (reference, signal) => (await processorInbox.reported(merchantRef, reference, signal)) as unknown as NotificationItem[],
  };
}
