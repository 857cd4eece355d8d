import { startAdyenFake, type AdyenFake } from './adyen/fake.js';
import { startCheckoutComFake, type CheckoutComFake } from './checkout-com/fake.js';

/**
 * Both processor fakes at once, for tests and for `npm start` when asked to run production
 * merchants locally: point an Adyen merchant's adapter at `adyen.url` (its apiKey, merchant
 * account and HMAC key are on the object) and a Checkout.com one at `checkoutCom.url`.
 */
export async function startProcessorFakes(
  options: { adyenNotificationUrl?: string; adyenMerchantAccount?: string; checkoutComProcessingChannelId?: string } = {},
): Promise<{ adyen: AdyenFake; checkoutCom: CheckoutComFake; close(): Promise<void> }> {
  const [adyen, checkoutCom] = await Promise.all([
    startAdyenFake({
      ...(options.adyenNotificationUrl ? { notificationUrl: options.adyenNotificationUrl } : {}),
      ...(options.adyenMerchantAccount ? { merchantAccount: options.adyenMerchantAccount } : {}),
    }),
    startCheckoutComFake(options.checkoutComProcessingChannelId ? { processingChannelId: options.checkoutComProcessingChannelId } : {}),
  ]);
  return { adyen, checkoutCom, close: async () => void (await Promise.all([adyen.close(), checkoutCom.close()])) };
}
