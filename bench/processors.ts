import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { PreparedPayment } from './fixtures.js';
import type { Authorizer } from '../lib/core/ports/authorizer.js';

/**
 * The processor column of `npm run bench` (issue 20 item 8): 4.3 for a PRODUCTION merchant whose
 * processor is one of the faithful fakes (test/fakes/, in this process, on loopback), against
 * the fake's own time. Each payment's processor time is what its calls to the fake took, seen
 * from the service (every request under the payment's Idempotency-Key, timed around `fetch`);
 * the overhead is the handler's latency minus that: everything 4.3 does that is not waiting for
 * the processor (the same as for the sandbox, plus the processor's adapter and, for Adyen, the
 * reference's location written before sending).
 */
export type BenchProcessor = 'adyen' | 'checkout_com';

/** The bench's own "production" network (a Visa-named key set the stack trusts): production merchants refuse the sandbox network. */
export async function benchNetwork(dataDir: string): Promise<{ name: string; jwksUrl: string; signingKey: JWK }> {
  const pair = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const meta = { kid: 'bench-production-network-1', alg: 'RS256', use: 'sig' };
  const signingKey = { ...(await exportJWK(pair.privateKey)), ...meta };
  const path = join(dataDir, 'bench-network-jwks.json');
  await writeFile(path, JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), ...meta }] }));
  return { name: 'visa', jwksUrl: pathToFileURL(path).href, signingKey };
}

/** How long each payment's own acquirer took (ms), by paymentRef. */
export interface AcquirerClock {
  of(paymentRef: string): number;
}

/** The sandbox acquirer's time per payment: its `authorize` (one DynamoDB write), timed around the call. */
export function sandboxClock(authorizer: Authorizer): AcquirerClock {
  const spent = new Map<string, number>();
  const authorize = authorizer.authorize.bind(authorizer);
  authorizer.authorize = async (request, signal) => {
    const started = performance.now();
    try {
      return await authorize(request, signal);
    } finally {
      spent.set(request.idempotencyKey, performance.now() - started);
    }
  };
  return { of: (paymentRef) => spent.get(paymentRef) ?? Number.NaN };
}

/** Per Idempotency-Key, how long the service's calls to one processor took (ms). */
export class ProcessorClock implements AcquirerClock {
  private readonly spent = new Map<string, number>();

  constructor(private readonly origin: string) {
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.startsWith(this.origin)) return realFetch(input, init);
      const headers = new Headers(init?.headers);
      const key = headers.get('idempotency-key') ?? headers.get('cko-idempotency-key') ?? '';
      const started = performance.now();
      try {
        const response = await realFetch(input, init);
        const body = await response.arrayBuffer(); // the body read is part of the processor's time
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      } finally {
        this.spent.set(key, (this.spent.get(key) ?? 0) + performance.now() - started);
      }
    }) as typeof fetch;
  }

  /** The processor time of one payment (its authorization's key). */
  of(paymentRef: string): number {
    return this.spent.get(`authorize:${paymentRef}`) ?? Number.NaN;
  }
}

export interface ProcessorBench {
  name: BenchProcessor;
  clock: AcquirerClock;
  payments: PreparedPayment[];
  close(): Promise<void>;
}

/**
 * One production merchant per processor fake, onboarded as a deployment is (credentials by ARN
 * in the local Secrets Manager, Adyen's key in SSM), and `count` orders with hosted sessions and
 * checkout responses signed by the bench network — all before the clock starts.
 */
export async function prepareProcessorBench(name: BenchProcessor, count: number, network: { signingKey: JWK }, amountValue: number): Promise<ProcessorBench> {
  const { startAdyenFake } = await import('../test/fakes/adyen/fake.js');
  const { startCheckoutComFake } = await import('../test/fakes/checkout-com/fake.js');
  const { configRepository, orderRepository, sessionRepository, orderDeps, paymentMethodsDeps } = await import('../lib/composition/core.js');
  const { paymentLinkRepository } = await import('../lib/composition/payment-links.js');
  const { payloadKeyVault } = await import('../lib/composition/keys.js');
  const { merchantConfigDeps } = await import('../lib/composition/merchants.js');
  const { upsertPaymentMethods } = await import('../lib/core/merchants/payment-methods.js');
  const { onboardMerchant } = await import('../lib/core/merchants/merchant-config.js');
  const { createOrder } = await import('../lib/core/orders/orders.js');
  const { createHostedSession } = await import('../lib/core/orders/hosted-sessions.js');
  const { buildSandboxCheckoutResponse } = await import('../lib/adapters/sandbox/checkout-response.js');
  const { sandboxCard } = await import('../lib/adapters/sandbox/sandbox-cards.js');

  const aws = { region: process.env.AWS_REGION!, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const secret = async (value: unknown) =>
    (
      await new SecretsManagerClient({ ...aws, endpoint: process.env.SECRETS_MANAGER_ENDPOINT }).send(
        new CreateSecretCommand({ Name: `click-to-pay/bench/processors/${name}-credentials`, SecretString: JSON.stringify(value) }),
      )
    ).ARN!;
  const merchantRef = `bench-${name.replace('_', '-')}`;
  const outletId = `${merchantRef}-outlet`;
  let processor: Record<string, string>;
  let origin: string;
  let close: () => Promise<void>;
  if (name === 'adyen') {
    const fake = await startAdyenFake({ merchantAccount: 'BenchECOM' });
    const hmac = '/click-to-pay/bench/processors/adyen-hmac';
    await new SSMClient({ ...aws, endpoint: process.env.SSM_ENDPOINT }).send(
      new PutParameterCommand({ Name: hmac, Value: fake.hmacKeyHex, Type: 'SecureString', Overwrite: true }),
    );
    processor = {
      name,
      account: fake.merchantAccount,
      credentialsArn: await secret({ apiKey: fake.apiKey, baseUrl: fake.url }),
      notificationHmacKeyArn: `arn:aws:ssm:${aws.region}:000000000000:parameter${hmac}`,
    };
    origin = fake.url;
    close = () => fake.close();
  } else {
    const fake = await startCheckoutComFake();
    processor = { name, account: fake.processingChannelId, credentialsArn: await secret({ secretKey: fake.secretKey, baseUrl: fake.url }) };
    origin = fake.url;
    close = () => fake.close();
  }
  const clock = new ProcessorClock(origin);

  const on = { enabled: true };
  await upsertPaymentMethods(paymentMethodsDeps, { level: 'platform' }, { CLICK_TO_PAY: on });
  await upsertPaymentMethods(paymentMethodsDeps, { level: 'tenant', tenantRef: 'bench-tenant' }, { CLICK_TO_PAY: on });
  await onboardMerchant(merchantConfigDeps, merchantRef, {
    tenantRef: 'bench-tenant',
    dpaId: 'bench',
    dpaClientId: 'bench',
    dpaName: 'Bench',
    cardBrands: ['visa'],
    locale: 'en_US',
    environment: 'production',
    threeDsPolicy: 'risk-based',
    outlets: [outletId],
    // Adyen's returnUrl (never used: nothing redirects) when PUBLIC_BASE_URL is not set.
    redirectOrigins: ['https://shop.bench.example'],
    processor: processor as { name: string },
  });
  const recipientKey = (await payloadKeyVault.publicKeys())[0]!.jwk;
  const seeder = { kind: 'platform', subject: 'bench', permissions: new Set<string>() } as const;
  const payments: PreparedPayment[] = [];
  for (let i = 0; i < count; i++) {
    const order = await createOrder(orderDeps, seeder, outletId, { action: 'AUTH', amount: { currencyCode: 'AED', value: amountValue } });
    const session = await createHostedSession(
      { orders: orderRepository, config: configRepository, sessions: sessionRepository, links: paymentLinkRepository, ttlSeconds: 3600, now: Date.now },
      seeder,
      outletId,
      order.orderRef,
      'http://bench',
    );
    const checkoutResponse = await buildSandboxCheckoutResponse({
      card: sandboxCard('visa-classic'),
      signingKey: network.signingKey,
      recipientKey,
      scheme: 'visa',
    });
    payments.push({
      outletId,
      orderRef: order.orderRef,
      paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef,
      sessionToken: session.sessionToken,
      body: { checkoutResponse },
    });
  }
  return { name, clock, payments, close };
}
