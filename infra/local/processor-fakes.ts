import { CreateSecretCommand, PutSecretValueCommand, ResourceExistsException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './stack.js';

/**
 * `PROCESSOR_FAKES=1 npm start` (docs/operating/local.md "Production merchants locally"): the
 * faithful fakes of Adyen and Checkout.com (test/fakes/) on loopback ports, their credentials
 * and Adyen's notification key written to the local Secrets Manager / SSM (the local KMS server
 * answers both) under this stack's processor prefix, and one production demo merchant per
 * processor onboarded with those ARNs — exactly as a deployment is configured. Adyen's fake
 * sends its signed notifications to the service's own POST /processors/adyen/notifications.
 */
export const DEMO_PROCESSOR_MERCHANTS = {
  adyen: { merchantRef: 'demo-adyen-merchant', outletId: 'demo-adyen-outlet', account: 'DemoShopECOM' },
  checkout_com: { merchantRef: 'demo-checkout-merchant', outletId: 'demo-checkout-outlet', account: 'pc_demoshopdemoshopdemoshopab' },
} as const;

export interface LocalProcessorFakes {
  merchants: Record<keyof typeof DEMO_PROCESSOR_MERCHANTS, { merchantRef: string; outletId: string; processorUrl: string }>;
  close(): Promise<void>;
}

/** Whether PROCESSOR_FAKES asks for them (1, true, yes). */
export const processorFakesWanted = (value: string | undefined): boolean => /^(1|true|yes)$/i.test(value?.trim() ?? '');

export async function startLocalProcessorFakes(options: { baseUrl: string; tenantRef: string; secretsEndpoint: string }): Promise<LocalProcessorFakes> {
  // Test code, loaded only when asked: a plain `npm start` never imports it.
  const { startProcessorFakes } = await import('../../test/fakes/processors.js');
  const fakes = await startProcessorFakes({
    adyenNotificationUrl: `${options.baseUrl}/processors/adyen/notifications`,
    adyenMerchantAccount: DEMO_PROCESSOR_MERCHANTS.adyen.account,
    checkoutComProcessingChannelId: DEMO_PROCESSOR_MERCHANTS.checkout_com.account,
  });
  const clients = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: options.secretsEndpoint };
  const secrets = new SecretsManagerClient(clients);
  const ssm = new SSMClient(clients);
  const prefix = 'click-to-pay/local/processors';
  // The secret of an earlier start (kept in the data directory) gets this start's value, under its ARN.
  const secret = async (name: string, value: unknown) => {
    const input = { SecretString: JSON.stringify(value) };
    try {
      return (await secrets.send(new CreateSecretCommand({ Name: `${prefix}/${name}`, ...input }))).ARN!;
    } catch (error) {
      if (!(error instanceof ResourceExistsException)) throw error;
      return (await secrets.send(new PutSecretValueCommand({ SecretId: `${prefix}/${name}`, ...input }))).ARN!;
    }
  };
  const adyenHmac = `/${prefix}/demo-adyen-hmac`;
  await ssm.send(new PutParameterCommand({ Name: adyenHmac, Value: fakes.adyen.hmacKeyHex, Type: 'SecureString', Overwrite: true }));

  const { configRepository } = await import('../../lib/composition/core.js');
  const { payloadKeyVault } = await import('../../lib/composition/keys.js');
  const { onboardMerchant } = await import('../../lib/core/merchants/merchant-config.js');
  const onboard = (merchant: { merchantRef: string; outletId: string }, dpaName: string, processor: Record<string, string>) =>
    onboardMerchant({ config: configRepository, keys: payloadKeyVault, now: Date.now }, merchant.merchantRef, {
      tenantRef: options.tenantRef,
      dpaId: `${merchant.merchantRef}-dpa`,
      dpaClientId: `${merchant.merchantRef}-client`,
      dpaName,
      cardBrands: ['visa', 'mastercard'],
      locale: 'en_AE',
      environment: 'production',
      threeDsPolicy: 'risk-based',
      outlets: [merchant.outletId],
      processor: processor as { name: string },
    });
  await onboard(DEMO_PROCESSOR_MERCHANTS.adyen, 'Demo Shop (Adyen)', {
    name: 'adyen',
    account: fakes.adyen.merchantAccount,
    credentialsArn: await secret('demo-adyen-credentials', { apiKey: fakes.adyen.apiKey, baseUrl: fakes.adyen.url }),
    notificationHmacKeyArn: `arn:aws:ssm:${LOCAL_REGION}:000000000000:parameter${adyenHmac}`,
  });
  await onboard(DEMO_PROCESSOR_MERCHANTS.checkout_com, 'Demo Shop (Checkout.com)', {
    name: 'checkout_com',
    account: fakes.checkoutCom.processingChannelId,
    credentialsArn: await secret('demo-checkout-credentials', { secretKey: fakes.checkoutCom.secretKey, baseUrl: fakes.checkoutCom.url }),
  });
  return {
    merchants: {
      adyen: { merchantRef: DEMO_PROCESSOR_MERCHANTS.adyen.merchantRef, outletId: DEMO_PROCESSOR_MERCHANTS.adyen.outletId, processorUrl: fakes.adyen.url },
      checkout_com: {
        merchantRef: DEMO_PROCESSOR_MERCHANTS.checkout_com.merchantRef,
        outletId: DEMO_PROCESSOR_MERCHANTS.checkout_com.outletId,
        processorUrl: fakes.checkoutCom.url,
      },
    },
    close: () => fakes.close(),
  };
}
