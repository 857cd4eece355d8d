import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../../lib/composition/aws.js';
import { paymentDeps } from '../../../lib/composition/payments.js';
import { aed, capture, refund } from '../../support/lifecycle.js';
import { tokenData } from '../../support/direct-wallet.js';
import type { InvokeResult } from '../../support/invoke.js';
import { payDirectly } from '../../support/payments.js';
import { postNotification, processorWorld, type ProcessorWorld } from '../../support/processor-world.js';
import { platformToken } from '../../support/tokens.js';

/**
 * SPEC §3 / 4.16 / definition of done, for production merchants on the processors: after
 * approvals, declines, faults, captures, refunds and notifications (genuine and forged), no
 * token number, cryptogram, processor credential or notification key is in any DynamoDB item,
 * any log line or any response body.
 */
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'debug';
});

const TOKEN = '4895370012003478';
const CRYPTOGRAM = 'AgAAAAAABk4DWZ4C28yUQAAAAAA=';
const logLines: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);
const responses: InvokeResult[] = [];
let worlds: ProcessorWorld[] = [];
let secrets: string[] = [];

beforeAll(async () => {
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logLines.push(String(chunk));
    return originalWrite(chunk as string, ...(rest as []));
  }) as typeof process.stdout.write;
  const token = await platformToken();
  worlds = [await processorWorld('adyen'), await processorWorld('checkout_com')];
  secrets = [TOKEN, CRYPTOGRAM, worlds[0]!.adyen!.apiKey, worlds[0]!.adyen!.hmacKeyHex, worlds[1]!.checkoutCom!.secretKey];
  for (const world of worlds) {
    const fake = (world.adyen ?? world.checkoutCom)!;
    const approved = await world.order(1000);
    responses.push(await payDirectly(approved, token, tokenData()));
    responses.push(await payDirectly(await world.order(1051), token, tokenData()));
    fake.setFault('reset-after-receipt', { path: /^\/payments$/ });
    const reset = await world.order(1000);
    responses.push(await payDirectly(reset, token, tokenData()));
    responses.push(await payDirectly(reset, token, tokenData()));
    paymentDeps.settings.authorizerTimeoutMs = 300;
    fake.setFault('hang', { path: /^\/payments$/ });
    responses.push(await payDirectly(await world.order(1000), token, tokenData()));
    paymentDeps.settings.authorizerTimeoutMs = 10_000;
    responses.push(await capture(approved, token, aed(600)));
    await world.settled();
    responses.push(await refund(approved, token, aed(100)));
    await world.settled();
  }
  const adyen = worlds[0]!.adyen!;
  responses.push(
    await postNotification(
      adyen.notifier.body(
        { eventCode: 'CAPTURE', pspReference: 'FORGED0000000009', merchantReference: 'x', amount: { currency: 'AED', value: 1 }, success: true },
        'EF'.repeat(32),
      ),
    ),
  );
});

afterAll(async () => {
  process.stdout.write = originalWrite;
  await Promise.all(worlds.map((world) => world.close()));
});

describe('no card data or processor secret at rest, in logs or in responses', () => {
  it('went through approvals, declines, faults, captures, refunds and a forged notification', () => {
    expect(responses.map((r) => r.status)).toEqual([200, 200, 502, 200, 502, 201, 201, 200, 200, 502, 200, 502, 201, 201, 401]);
    expect(worlds[0]!.notifications.length).toBeGreaterThan(2);
  });

  it('no DynamoDB item holds one', async () => {
    for (const TableName of [process.env.CONFIG_TABLE, process.env.ORDERS_TABLE, process.env.SESSIONS_TABLE, process.env.REPLAY_TABLE]) {
      const { Items = [] } = await documentClient.send(new ScanCommand({ TableName }));
      const dump = JSON.stringify(Items);
      for (const secret of secrets) expect(dump).not.toContain(secret);
    }
  });

  it('no log line holds one', () => {
    expect(logLines.some((line) => line.includes('processor notification'))).toBe(true);
    for (const line of logLines) for (const secret of secrets) expect(line).not.toContain(secret);
  });

  it('no response body holds one', () => {
    for (const response of responses) for (const secret of secrets) expect(response.raw).not.toContain(secret);
  });
});
