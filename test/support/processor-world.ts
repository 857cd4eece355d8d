import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { handler as notificationsHandler } from '../../functions/adyen-notifications/handler.js';
import { configRepository, orderRepository } from '../../lib/composition/core.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import type { MerchantProcessor } from '../../lib/core/domain/merchant.js';
import { onboardMerchant } from '../../lib/core/merchants/merchant-config.js';
import { createOrder } from '../../lib/core/orders/orders.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';
import { startAdyenFake, type AdyenFake } from '../fakes/adyen/fake.js';
import { startCheckoutComFake, type CheckoutComFake } from '../fakes/checkout-com/fake.js';
import { invoke, type InvokeResult } from './invoke.js';
import { setPlatform, setTenant, uniqueRef } from './seed.js';
import { storedItem } from './stored-item.js';

/**
 * A production merchant whose processor is one of the fakes (test/fakes), wired as a deployment
 * would be: its credentials and notification key written to the local Secrets Manager / SSM
 * (the local KMS server answers both) and referenced by ARN at onboarding, its payments made
 * through the real handlers. Adyen's notifications reach the real notification function through
 * a relay (the fake POSTs to it; it invokes the handler as API Gateway would).
 */
export type ProcessorName = 'adyen' | 'checkout_com';

export interface ProcessorWorld {
  name: ProcessorName;
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  processor: MerchantProcessor;
  adyen?: AdyenFake;
  checkoutCom?: CheckoutComFake;
  /** Every notification the relay handed to the service, with its answer. */
  notifications: { status: number; body: string }[];
  /** A new AUTH (or PURCHASE) order of the merchant: its refs. */
  order(value: number, action?: 'AUTH' | 'PURCHASE'): Promise<{ outletId: string; orderRef: string; paymentRef: string }>;
  /** What the fake performed under one of our references (paymentRef or operation ref). */
  performed(reference: string): { operation: string; reference: string; idempotencyKey: string }[];
  /** Waits until every notification the fake started has been answered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const secrets = () =>
  new SecretsManagerClient({
    region: process.env.AWS_REGION,
    endpoint: process.env.SECRETS_MANAGER_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
const ssm = () =>
  new SSMClient({ region: process.env.AWS_REGION, endpoint: process.env.SSM_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** A Secrets Manager secret holding `value` (JSON when not a string): its ARN. */
export async function putSecret(value: unknown): Promise<string> {
  const { ARN } = await secrets().send(
    new CreateSecretCommand({
      Name: `click-to-pay/test/processors/${randomBytes(6).toString('hex')}`,
      SecretString: typeof value === 'string' ? value : JSON.stringify(value),
    }),
  );
  return ARN!;
}

/** An SSM SecureString parameter holding `value`: its ARN. */
export async function putParameter(value: string): Promise<string> {
  const name = `/click-to-pay/test/processors/${randomBytes(6).toString('hex')}`;
  await ssm().send(new PutParameterCommand({ Name: name, Value: value, Type: 'SecureString' }));
  return `arn:aws:ssm:${process.env.AWS_REGION}:000000000000:parameter${name}`;
}

/** Relays HTTP requests to the notification function as API Gateway would (payload 2.0). */
async function startRelay(notifications: ProcessorWorld['notifications']): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void postNotification(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'] ?? 'application/json').then((answer) => {
        notifications.push({ status: answer.status, body: answer.raw });
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.raw);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/processors/adyen/notifications`, server };
}

/** POST /processors/adyen/notifications with this body, through the real handler. */
export function postNotification(body: string | unknown, contentType = 'application/json'): Promise<InvokeResult> {
  return invoke(notificationsHandler, {
    method: 'POST',
    path: '/processors/adyen/notifications',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    contentType,
    timeoutMs: 15_000,
  });
}

export async function processorWorld(name: ProcessorName, options: { processingDelayMs?: number } = {}): Promise<ProcessorWorld> {
  const notifications: ProcessorWorld['notifications'] = [];
  const tenantRef = uniqueRef('t');
  const merchantRef = uniqueRef('m');
  const outletId = uniqueRef('o');
  await setPlatform({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
  await setTenant(tenantRef, { CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
  let processor: MerchantProcessor;
  let adyen: AdyenFake | undefined;
  let checkoutCom: CheckoutComFake | undefined;
  let relay: Server | undefined;
  if (name === 'adyen') {
    const started = await startRelay(notifications);
    relay = started.server;
    adyen = await startAdyenFake({
      notificationUrl: started.url,
      merchantAccount: `${merchantRef.replace(/-/g, '')}ECOM`,
      processingDelayMs: options.processingDelayMs ?? 0,
    });
    processor = {
      name: 'adyen',
      account: adyen.merchantAccount,
      credentialsArn: await putSecret({ apiKey: adyen.apiKey, baseUrl: adyen.url }),
      notificationHmacKeyArn: await putParameter(adyen.hmacKeyHex),
    };
  } else {
    checkoutCom = await startCheckoutComFake();
    processor = {
      name: 'checkout_com',
      account: checkoutCom.processingChannelId,
      credentialsArn: await putSecret({ secretKey: checkoutCom.secretKey, baseUrl: checkoutCom.url }),
    };
  }
  await onboardMerchant({ config: configRepository, keys: payloadKeyVault, now: Date.now }, merchantRef, {
    tenantRef,
    dpaId: 'dpa-prod',
    dpaClientId: 'dpa-client-prod',
    dpaName: 'Production Shop',
    cardBrands: ['visa', 'mastercard'],
    locale: 'en_AE',
    environment: 'production',
    threeDsPolicy: 'risk-based',
    outlets: [outletId],
    processor,
  });
  const seeder = { kind: 'platform', subject: 'seed', permissions: new Set<string>() } as const;
  return {
    name,
    tenantRef,
    merchantRef,
    outletId,
    processor,
    notifications,
    ...(adyen ? { adyen } : {}),
    ...(checkoutCom ? { checkoutCom } : {}),
    async order(value, action = 'AUTH') {
      const order = await createOrder({ config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource }, seeder, outletId, {
        action,
        amount: { currencyCode: 'AED', value },
      });
      return { outletId, orderRef: order.orderRef, paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef };
    },
    performed(reference) {
      if (adyen) return adyen.ledger.filter((entry) => entry.reference === reference);
      return checkoutCom!.ledger.filter((entry) => entry.reference === reference);
    },
    async settled() {
      await adyen?.notifier.settled();
    },
    async close() {
      await adyen?.close();
      await checkoutCom?.close();
      if (relay) await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

/** The payment item as stored, outbox included (the events its writes announced and nobody drained yet). */
export async function storedPayment(orderRef: string, paymentRef: string) {
  return (await storedItem({ pk: `ORDER#${orderRef}`, sk: `PAYMENT#${paymentRef}` })) as Record<string, any>;
}

/** The types of the events the payment's writes announced, in order. */
export async function announced(orderRef: string, paymentRef: string): Promise<string[]> {
  const item = await storedPayment(orderRef, paymentRef);
  return ((item.outbox ?? []) as { type?: string; kind?: string }[]).filter((entry) => entry.type).map((entry) => entry.type!);
}
