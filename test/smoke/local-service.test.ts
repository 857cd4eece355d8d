import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, run, startService, type RunningService } from '../support/local-service.js';
import { webhookReceiver } from '../support/webhook-receiver.js';
import { isPortFree } from '../../infra/local/ports.js';

/**
 * The user's path, over real HTTP: `npm start` on a fresh data directory, then orders,
 * hosted sessions and payments with the checkout responses `npm run -s sandbox:checkout`
 * prints — through serverless-offline running the same handlers that deploy to Lambda.
 */
// Real processes on a 2-core machine next to other test files: generous, not tight.
vi.setConfig({ testTimeout: 90_000 });

let service: RunningService;
let dataDir: string;
let port: number;
let base: string;

const env = () => ({ PORT: String(port), DATA_DIR: dataDir, AUTHORIZER_TIMEOUT_MS: '1500', LOG_LEVEL: 'info' });

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    // Every answer comes within the service's deadlines (10 s at most, SPEC §6); a request
    // unanswered for this long was lost, and says which one rather than timing out the test.
    signal: AbortSignal.timeout(45_000),
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  }).catch((error: unknown) => {
    throw new Error(`${method} ${path}: no answer`, { cause: error });
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** An order at the demo outlet plus a hosted session for it, as a merchant backend would do. */
async function orderWithSession(value: number) {
  const { outletId, tokens } = service.demo;
  const order = await api('POST', `/transactions/outlets/${outletId}/orders`, tokens.tenant, { action: 'AUTH', amount: { currencyCode: 'AED', value } });
  expect(order.status).toBe(201);
  const session = await api('POST', `/transactions/outlets/${outletId}/orders/${order.body.orderRef}/hosted-sessions`, tokens.tenant);
  expect(session.status).toBe(201);
  expect(session.body.checkoutUrl).toBe(`${base}/checkout?session=${session.body.sessionToken}`);
  return { orderRef: order.body.orderRef as string, paymentRef: order.body.payments[0].paymentRef as string, session: session.body.sessionToken as string };
}

async function sandboxCheckout(orderRef: string, ...extra: string[]): Promise<string> {
  const result = await run('npm', ['run', '-s', 'sandbox:checkout', '--', '--order', orderRef, '--data-dir', dataDir, '--api', base, ...extra]);
  expect(result.code, result.stderr).toBe(0);
  expect(() => JSON.parse(result.stdout)).not.toThrow();
  return result.stdout;
}

/** The sandbox acquirer's own record of a payment (SPEC §5), read from the local DynamoDB. */
async function acquirerRecord(paymentRef: string): Promise<{ calls: number } | undefined> {
  const { local } = service.demo;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: local.dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  try {
    const { Item } = await client.send(new GetCommand({ TableName: local.sandboxTable, Key: { pk: `SANDBOX_ACQUIRER#${paymentRef}` }, ConsistentRead: true }));
    return Item ? { calls: (Item.callIds as Set<string>).size } : undefined;
  } finally {
    client.destroy();
  }
}

const payPath = (orderRef: string, paymentRef: string, tail: string) =>
  `/transactions/outlets/${service.demo.outletId}/orders/${orderRef}/payments/${paymentRef}/${tail}`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-smoke-'));
  port = await freePort();
  base = `http://localhost:${port}`;
  service = await startService(env());
}, 200_000);

// When something fails, the service's own log is the first thing anyone needs: its tail here,
// the whole of it in test-results/ (a hung request's story is often older than the tail).
afterEach(async (context) => {
  if (context.task.result?.state !== 'fail' || !service) return;
  const file = join('test-results', 'service-logs', 'smoke-local-service.npm-start.log');
  await mkdir(join('test-results', 'service-logs'), { recursive: true });
  await writeFile(file, service.output());
  console.error(`--- npm start output (tail; all of it in ${file}) ---\n${service.output().slice(-6000)}`);
});

afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('npm start', () => {
  it('prints the URLs and demo tokens, and the tokens work', async () => {
    const out = service.output();
    expect(out).toContain(`Click to Pay service running at ${base}`);
    expect(out).toContain('PLATFORM_TOKEN=');
    expect(out).toContain('Hosted checkout');
    // The demo payment link: printed, and it opens (303 to the hosted checkout page).
    expect(service.demo.paymentLinkUrl).toMatch(new RegExp(`^${base}/pay/pl_[A-Za-z0-9_-]{22}$`));
    expect(out).toContain(`Payment link        ${service.demo.paymentLinkUrl}`);
    const opened = await fetch(service.demo.paymentLinkUrl, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(new RegExp(`^${base}/checkout\\?session=hs_`));
    const config = await api('GET', `/config/merchants/${service.demo.merchantRef}/configs/vctp`, service.demo.tokens.tenant);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      dpaName: 'Demo Shop',
      environment: 'sandbox',
      clickToPayEnabled: true,
      outlets: ['demo-outlet'],
      // The return-URL recipes (docs/integrating/hosted-page.md) send shoppers back there.
      redirectOrigins: ['https://shop.example.com'],
    });
  });

  it('a second start on the same port says the port is in use', async () => {
    const second = await run('npm', ['start'], env());
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/port \d+ is already in use/);
  }, 60_000);

  it('answers unknown routes and wrong methods with problem details', async () => {
    const wrong = await fetch(`${base}/transactions/outlets/x/orders`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('content-type')).toBe('application/problem+json');
    const unauthenticated = await fetch(`${base}/config/configs/vctp/encryption-keys`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('CORS from npm start: none unless corsAllowedOrigins is configured, exactly as deployed', () => {
  const corsHeadersOf = (response: Response) => {
    const names: string[] = [];
    response.headers.forEach((_, name) => name.startsWith('access-control-') && names.push(name));
    return names;
  };

  it.each(['https://evil.example', 'null'])('Origin: %s — no CORS header on a preflight or on a plain GET', async (origin) => {
    const preflight = await fetch(`${base}/transactions/outlets/${service.demo.outletId}/orders`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(corsHeadersOf(preflight)).toEqual([]);
    expect(preflight.status).toBe(405); // an OPTIONS like any other method: no route takes it
    const plain = await fetch(`${base}/config/merchants/${service.demo.merchantRef}/configs/vctp`, {
      headers: { Origin: origin, Authorization: `Bearer ${service.demo.tokens.tenant}` },
    });
    expect(plain.status).toBe(200);
    expect(corsHeadersOf(plain)).toEqual([]);
    expect(service.output()).toContain('CORS                none');
  });
});

describe('webhooks from npm start (SPEC §4.15)', () => {
  it('a webhook pointed at a local receiver gets signed events within seconds: authorised, then captured', async () => {
    const receiver = await webhookReceiver([]);
    try {
      const { merchantRef, tokens } = service.demo;
      const put = await api('PUT', `/config/merchants/${merchantRef}/configs/webhooks`, tokens.platform, { url: receiver.url });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      receiver.useSecrets([put.body.signingSecret]);
      const { orderRef, paymentRef, session } = await orderWithSession(2000);
      expect((await api('POST', payPath(orderRef, paymentRef, 'click-to-pay'), session, await sandboxCheckout(orderRef))).body.state).toBe('AUTHORISED');
      const captured = await api('POST', payPath(orderRef, paymentRef, 'captures'), tokens.tenant);
      expect(captured.body.state, JSON.stringify(captured.body)).toBe('CAPTURED');
      const mine = () =>
        receiver
          .events()
          .filter((e) => e.data.paymentRef === paymentRef)
          .map((e) => e.type);
      await vi.waitFor(() => expect(mine()).toEqual(['payment.authorised', 'payment.captured']), { timeout: 15_000, interval: 200 });
      expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
      const events = await api('GET', `/config/merchants/${merchantRef}/events`, tokens.platform);
      const listed = events.body.events.filter((e: { data: { paymentRef: string } }) => e.data.paymentRef === paymentRef);
      expect(listed.map((e: { delivery: { status: string } }) => e.delivery.status)).toEqual(['DELIVERED', 'DELIVERED']);
      // The terminal: the worker runs every second, but only invocations that did something are told.
      expect(service.output()).toMatch(/^npm start: click-to-pay-local-webhookDelivery: \d+ due items? processed$/m);
      expect(service.output()).not.toContain('(λ: webhookDelivery)');
      expect(service.output()).not.toContain('Successfully invoked scheduled function');
    } finally {
      await receiver.close();
    }
  });
});

describe('payments end to end over HTTP', () => {
  it('order → hosted session → sandbox checkout response → AUTHORISED, visible on the order', async () => {
    const { orderRef, paymentRef, session } = await orderWithSession(1000);
    const body = await sandboxCheckout(orderRef);
    const paid = await api('POST', payPath(orderRef, paymentRef, 'click-to-pay'), session, body);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { type: 'CLICK_TO_PAY', brand: 'VISA' } });
    const order = await api('GET', `/transactions/outlets/${service.demo.outletId}/orders/${orderRef}`, session);
    expect(order.body.state).toBe('AUTHORISED');
  });

  it('ECI 07 → AWAIT_3DS → the sandbox ACS (another origin) with code 1234 → 4.10 → AUTHORISED', async () => {
    const { orderRef, paymentRef, session } = await orderWithSession(1000);
    const awaiting = await api('POST', payPath(orderRef, paymentRef, 'click-to-pay'), session, await sandboxCheckout(orderRef, '--eci', '07'));
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const { acsUrl, creq } = awaiting.body.threeDs;
    // The sandbox ACS on an origin of its own (docs/integrating/three-ds.md), reached by form POSTs.
    expect(acsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/3ds\/challenge$/);
    expect(new URL(acsUrl).origin).not.toBe(new URL(base).origin);
    const post = (fields: Record<string, string>) =>
      fetch(acsUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const form = await post({ creq });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Verification code');
    const answered = await post({ creq, code: '1234' });
    const cres = /name="cres" value="([^"]+)"/.exec(await answered.text())![1]!;
    const done = await api('POST', payPath(orderRef, paymentRef, '3ds'), session, { cres });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05' });
  });

  it('a decline amount ends FAILED; a timeout amount answers 502 and leaves the order retryable', async () => {
    const declined = await orderWithSession(1051);
    const failed = await api(
      'POST',
      payPath(declined.orderRef, declined.paymentRef, 'click-to-pay'),
      declined.session,
      await sandboxCheckout(declined.orderRef),
    );
    expect(failed.body).toMatchObject({ state: 'FAILED', failure: { code: 'INSUFFICIENT_FUNDS' } });

    const slow = await orderWithSession(1099);
    const timedOut = await api('POST', payPath(slow.orderRef, slow.paymentRef, 'click-to-pay'), slow.session, await sandboxCheckout(slow.orderRef));
    expect(timedOut.status).toBe(502);
    expect(timedOut.body.code).toBe('AUTHORIZATION_UNAVAILABLE');
    const order = await api('GET', `/transactions/outlets/${service.demo.outletId}/orders/${slow.orderRef}`, slow.session);
    expect(order.body.state).toBe('STARTED');
  });

  // Over HTTP each concurrent request gets its own serverless-offline worker thread (a Lambda
  // instance, its module init included), so a dozen proves the path without starving a shared
  // 2-core machine; test/payments/click-to-pay.test.ts runs 50 in one process.
  it('concurrent submissions over HTTP authorize once', async () => {
    const { orderRef, paymentRef, session } = await orderWithSession(1000);
    const body = await sandboxCheckout(orderRef, '--scheme', 'mastercard');
    const results = await Promise.all(Array.from({ length: 12 }, () => api('POST', payPath(orderRef, paymentRef, 'click-to-pay'), session, body)));
    const statuses = results.map((r) => r.status);
    // 503 is a legal answer under this burst on 2 cores (a dependency slower than its deadline,
    // SPEC §6); what must hold is one acquirer operation, and a retry that ends AUTHORISED.
    expect(
      statuses.every((s) => s === 200 || s === 409 || s === 503),
      statuses.join(','),
    ).toBe(true);
    let settled = results.find((r) => r.status === 200);
    const giveUpAt = Date.now() + 50_000; // a lease left by a 503 lasts 30 s
    let wait = 1;
    while (!settled && Date.now() < giveUpAt) {
      await new Promise((r) => setTimeout(r, Math.min(wait, 5) * 1_000));
      const retry = await api('POST', payPath(orderRef, paymentRef, 'click-to-pay'), session, body);
      if (retry.status === 200) settled = retry;
      wait = Number(retry.headers.get('retry-after') ?? 1);
    }
    expect(settled?.body.state).toBe('AUTHORISED');
    expect((await acquirerRecord(paymentRef))?.calls).toBe(1);
    const order = await api('GET', `/transactions/outlets/${service.demo.outletId}/orders/${orderRef}`, session);
    expect(order.body.payments).toHaveLength(1);
    expect(order.body.payments[0].state).toBe('AUTHORISED');
  }, 90_000);

  it('after a crash (SIGKILL) a restart works and keeps the data: the same order and tokens; a payment waiting for 3DS is finished at its acsUrl', async () => {
    const { orderRef } = await orderWithSession(1000);
    const challenged = await orderWithSession(1000);
    const awaiting = await api(
      'POST',
      payPath(challenged.orderRef, challenged.paymentRef, 'click-to-pay'),
      challenged.session,
      await sandboxCheckout(challenged.orderRef, '--eci', '07'),
    );
    expect(awaiting.body.state).toBe('AWAIT_3DS');
    const { acsUrl, creq } = awaiting.body.threeDs;
    const exited = new Promise((resolve) => service.process.once('exit', resolve));
    process.kill(-service.process.pid!, 'SIGKILL');
    await exited;
    // npm exits first; the rest of its process group (serverless-offline holding the port) may
    // take a while to be reaped on a loaded machine. npm start refuses a busy port, rightly.
    await vi.waitFor(async () => expect(await isPortFree(port)).toBe(true), { timeout: 30_000, interval: 250 });
    service = await startService(env());
    const order = await api('GET', `/transactions/outlets/${service.demo.outletId}/orders/${orderRef}`, service.demo.tokens.tenant);
    expect(order.status).toBe(200);
    expect(order.body.orderRef).toBe(orderRef);
    // The sandbox ACS kept its origin (it is in the stored payment): the challenge goes on there.
    expect(service.demo.local.sandboxAcsBaseUrl).toBe(new URL(acsUrl).origin);
    const answered = await fetch(acsUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ creq, code: '1234' }),
    });
    expect(answered.status).toBe(200);
    const cres = /name="cres" value="([^"]+)"/.exec(await answered.text())![1]!;
    const done = await api('POST', payPath(challenged.orderRef, challenged.paymentRef, '3ds'), challenged.session, { cres });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05' });
  }, 200_000);
});
