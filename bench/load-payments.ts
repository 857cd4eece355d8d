import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { buildSandboxCheckoutResponse } from '../lib/adapters/sandbox/checkout-response.js';
import { sandboxCard } from '../lib/adapters/sandbox/sandbox-cards.js';
import type { Target } from './load-service.js';

/** One 4.3 request made ready before the clock starts: its own order, payment, session and body. */
export interface LoadPayment {
  path: string;
  sessionToken: string;
  body: string;
}

/** Requests in flight while preparing: enough to be quick, few enough not to be a load test of its own. */
const PREPARE_CONCURRENCY = 4;

async function call(target: Target, method: string, path: string, token: string, json?: unknown): Promise<Record<string, any>> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`preparing: ${method} ${path} answered ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, any>;
}

/**
 * What a shopper's browser would have by the time it calls 4.3, made over the service's own
 * API the way a merchant's backend does it: an order (4.8; the sandbox acquirer authorises
 * 1000 and declines amounts such as 1051, SPEC §5) and a hosted session (4.9) per payment,
 * with the tenant token; then a checkout response signed with the sandbox network's key (from
 * the service's data directory) and encrypted to the service's current payload key (4.2):
 * what `npm run sandbox:checkout` prints.
 */
export async function prepareLoadPayments(target: Target, dataDir: string, count: number, amountValue: number): Promise<LoadPayment[]> {
  const { outletId, tokens } = target.demo;
  const { keys: signingKeys } = JSON.parse(await readFile(join(dataDir, 'sandbox-network', 'private-jwks.json'), 'utf8')) as { keys: JWK[] };
  const signingKey = signingKeys.find((key) => key.alg === 'RS256')!;
  const published = await call(target, 'GET', '/config/configs/vctp/encryption-keys', tokens.tenant);
  const recipientKey = (published.keys as JWK[]).find((key) => key.kid === published.encryptionKeyId)!;

  const prepared: LoadPayment[] = [];
  let started = 0;
  const one = async (): Promise<LoadPayment> => {
    const orders = `/transactions/outlets/${outletId}/orders`;
    const order = await call(target, 'POST', orders, tokens.tenant, { action: 'AUTH', amount: { currencyCode: 'AED', value: amountValue } });
    const session = await call(target, 'POST', `${orders}/${order.orderRef}/hosted-sessions`, tokens.tenant);
    const checkoutResponse = await buildSandboxCheckoutResponse({ card: sandboxCard('visa-classic'), signingKey, recipientKey, scheme: 'visa' });
    return {
      path: `${orders}/${order.orderRef}/payments/${order.payments[0].paymentRef}/click-to-pay`,
      sessionToken: session.sessionToken as string,
      body: JSON.stringify({ checkoutResponse }),
    };
  };
  await Promise.all(
    Array.from({ length: Math.min(PREPARE_CONCURRENCY, count) }, async () => {
      while (started < count) {
        started++;
        prepared.push(await one());
      }
    }),
  );
  return prepared;
}
