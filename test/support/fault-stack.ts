import { afterAll, afterEach } from 'vitest';
import { FaultProxy } from './fault-proxy.js';

/**
 * Puts a fault proxy in front of DynamoDB and of KMS for one test file. Call it with a
 * top-level await before anything imports the service's clients (they read the endpoints
 * once, at module load): the file imports lib/ modules dynamically after it. After each
 * test the proxies are healed and the payment settings a test may shorten are restored.
 */
export async function proxiedStack(): Promise<{ dynamo: FaultProxy; kms: FaultProxy }> {
  const dynamo = await FaultProxy.start(process.env.DYNAMODB_ENDPOINT!);
  const kms = await FaultProxy.start(process.env.KMS_ENDPOINT!);
  process.env.DYNAMODB_ENDPOINT = dynamo.url;
  process.env.KMS_ENDPOINT = kms.url;
  const { paymentDeps } = await import('../../lib/composition/payments.js');
  const defaults = { ...paymentDeps.settings };
  afterEach(() => {
    dynamo.heal();
    kms.heal();
    Object.assign(paymentDeps.settings, defaults);
  });
  afterAll(async () => {
    await Promise.all([dynamo.close(), kms.close()]);
  });
  return { dynamo, kms };
}
