import { CheckoutComProcessor } from '../../adapters/processors/checkout-com/adapter.js';
import { checkoutComAdapterConfig, checkoutComBaseUrl, checkoutComCredentials } from '../../adapters/processors/checkout-com/config.js';
import type { MerchantConfig, MerchantProcessor } from '../../core/domain/merchant.js';
import type { Authorizer } from '../../core/ports/authorizer.js';
import { paymentConfig } from '../config/payment-config.js';
import { secretSource } from '../secrets.js';
import { parsedSecret } from './parsed-secret.js';

/** A Checkout.com merchant's adapter (loaded only for such a merchant): its secret key and processing channel. */
export async function checkoutComAuthorizer(merchant: MerchantConfig & { processor: MerchantProcessor }): Promise<Authorizer> {
  const { processor } = merchant;
  const credentials = parsedSecret(
    await secretSource.read(processor.credentialsArn!),
    checkoutComCredentials,
    'Checkout.com credentials: {secretKey, urlPrefix?, sandbox?, baseUrl?}',
  );
  const config = checkoutComAdapterConfig.safeParse({
    baseUrl: checkoutComBaseUrl(credentials),
    secretKey: credentials.secretKey,
    processingChannelId: processor.account,
    timeoutMs: paymentConfig.AUTHORIZER_TIMEOUT_MS,
  });
  if (!config.success) throw new Error('the Checkout.com adapter configuration is invalid (base URL or processing channel)');
  return new CheckoutComProcessor(config.data);
}
