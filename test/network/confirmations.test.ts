import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { configRepository, orderRepository } from '../../lib/composition/core.js';
import { paymentDeps, paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import type { OrderAction } from '../../lib/core/domain/order.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { METRIC, metrics } from '../../lib/core/ports/metrics.js';
import { confirmationId } from '../../lib/core/network/confirmation.js';
import { CONFIRMATION_SK_PREFIX } from '../../lib/adapters/dynamodb/due-items.js';
import { EventRepository } from '../../lib/adapters/dynamodb/event-repository.js';
import { SandboxNetworkClient } from '../../lib/adapters/sandbox/sandbox-network-client.js';
import { createOrder } from '../../lib/core/orders/orders.js';
import { sweep, type OutboxWorkerDeps } from '../../lib/core/outbox/worker.js';
import { HttpWebhookSender } from '../../lib/adapters/webhooks/sender.js';
import { checkoutResponse, sandboxSigningKey } from '../support/checkout.js';
import { confirmationRepository } from '../support/confirmations.js';
import type { NetworkClient } from '../../lib/core/ports/network-client.js';
import { tokenData } from '../support/direct-wallet.js';
import { aed, authorizedWorld, capture, refund, reverse } from '../support/lifecycle.js';
import { answerChallenge, completeThreeDs, pay, payDirectly } from '../support/payments.js';
import { networkRecord, sandboxNetworkServer } from '../support/sandbox-network-server.js';
import { seedMerchant } from '../support/seed.js';
import { storedItem } from '../support/stored-item.js';
import { platformToken } from '../support/tokens.js';
import { LEASE_RULE } from '../../lib/core/domain/lease-rule.js';
import { outboxWorker } from '../support/outbox-worker.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';

const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
const logger = new Logger({}, 'error', () => undefined);
let token: string;
let clock = Date.now();
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  token = await platformToken();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function network() {
  const server = await sandboxNetworkServer();
  closers.push(server.close);
  return server;
}

/** The delivery worker (webhooks unconfigured) with the sandbox network client and a clock the test moves. */
function worker(
  url: string,
  retryDelaysMs: readonly number[] = [5_000, 30_000],
  networkClients: Record<string, NetworkClient> = { sandbox: new SandboxNetworkClient(url, 1_000) },
): OutboxWorkerDeps {
  clock = Date.now();
  return outboxWorker({
    store: events,
    endpoints: { endpointFor: async () => undefined },
    sender: new HttpWebhookSender({ timeoutMs: 1_000 }),
    networkClients,
    now: () => clock,
    settings: { retryDelaysMs, claimMs: 15_000 },
  });
}
const sweepAll = (deps: OutboxWorkerDeps) => sweep(deps, logger, { perShard: 100, concurrency: 4, stopAt: Number.POSITIVE_INFINITY });

/** A sandbox merchant's order of `action`, paid through 4.3 with a Mastercard (or Visa) checkout. */
async function checkoutPayment(options: { action?: OrderAction; amount?: number; scheme?: 'visa' | 'mastercard'; eci?: string } = {}) {
  const scheme = options.scheme ?? 'mastercard';
  const merchant = await seedMerchant();
  const order = await createOrder(
    { config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource },
    { kind: 'platform', subject: 'seed', permissions: new Set() },
    merchant.outletId,
    {
      action: options.action ?? 'AUTH',
      amount: { currencyCode: 'AED', value: options.amount ?? 1000 },
    },
  );
  const world = { ...merchant, orderRef: order.orderRef, paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef };
  const sdkResult = await checkoutResponse(
    scheme === 'mastercard' ? { scheme, card: 'mastercard-world', signingKey: sandboxSigningKey('ES256'), ...(options.eci ? { eci: options.eci } : {}) } : {},
  );
  const jws = sdkResult.checkoutResponse as string;
  const payload = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as { srcCorrelationId: string; srciTransactionId: string };
  const response = await pay(world, token, sdkResult);
  expect(response.status, response.raw).toBe(200);
  return { world, response, srcCorrelationId: payload.srcCorrelationId, srciTransactionId: payload.srciTransactionId };
}

const paymentKey = (w: { orderRef: string; paymentRef: string }) => ({ pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` });

describe('Mastercard confirmations (SPEC 4.3): every outcome reaches the network once', () => {
  it('authorised, then captured and refunded: one confirmation each, in Mastercard’s format', async () => {
    const server = await network();
    const { world, response, srcCorrelationId, srciTransactionId } = await checkoutPayment();
    expect(response.body.state).toBe('AUTHORISED');
    const deps = worker(server.url);
    await sweepAll(deps);
    let record = await networkRecord(srcCorrelationId);
    expect(record.receipts).toBe(1);
    expect(record.confirmations).toHaveLength(1);
    expect(record.confirmations[0]!.confirmationId).toBe(confirmationId(world.paymentRef, 'AUTHORISATION'));
    expect(record.confirmations[0]!.body).toEqual({
      srcClientId: 'sandbox-src-initiator',
      srcCorrelationId,
      srciTransactionId,
      confirmationData: {
        checkoutEventType: '01',
        checkoutEventStatus: '01',
        confirmationStatus: '01',
        confirmationReason: 'AUTHORISED',
        confirmationTimestamp: response.body.authorization.at,
        networkAuthorizationCode: response.body.authorization.code,
        networkTransactionIdentifier: 'UNAVLB',
        transactionAmount: { transactionAmount: '10.00', transactionCurrencyCode: 'AED' },
      },
    });

    expect((await capture(world, token, aed(300))).status).toBe(201);
    expect((await refund(world, token, aed(120))).status).toBe(201);
    clock = Date.now(); // the test's clock, moved past the writes that made them
    await sweepAll(deps);
    await sweepAll(deps); // nothing left to send: a second sweep sends nothing again
    record = await networkRecord(srcCorrelationId);
    expect(record.receipts).toBe(3);
    expect(record.confirmations.map((c) => [c.body.confirmationData.checkoutEventType, c.body.confirmationData.transactionAmount.transactionAmount])).toEqual([
      ['01', '10.00'],
      ['02', '3.00'],
      ['03', '1.20'],
    ]);
    const stored = await confirmationRepository().list(world.merchantRef);
    expect(stored.map((c) => c.status)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
  });

  it('a reversal is a Cancel; a PURCHASE confirms the authorisation and its capture', async () => {
    const server = await network();
    const auth = await checkoutPayment();
    expect((await reverse(auth.world, token)).status).toBe(200);
    const sale = await checkoutPayment({ action: 'PURCHASE' });
    expect(sale.response.body.state).toBe('CAPTURED');
    await sweepAll(worker(server.url));
    const reversed = await networkRecord(auth.srcCorrelationId);
    expect(reversed.confirmations.map((c) => [c.body.confirmationData.checkoutEventType, c.body.confirmationData.checkoutEventStatus])).toEqual([
      ['01', '01'],
      ['04', '03'],
    ]);
    const purchased = await networkRecord(sale.srcCorrelationId);
    expect(purchased.receipts).toBe(2);
    expect(purchased.confirmations.map((c) => c.body.confirmationData.checkoutEventType)).toEqual(['01', '02']);
  });

  it('a decline is confirmed as a failed authorisation with its reason', async () => {
    const server = await network();
    const { response, srcCorrelationId } = await checkoutPayment({ amount: 1051 }); // sandbox: …51 → INSUFFICIENT_FUNDS
    expect(response.body.state).toBe('FAILED');
    await sweepAll(worker(server.url));
    const record = await networkRecord(srcCorrelationId);
    expect(record.receipts).toBe(1);
    expect(record.confirmations[0]!.body.confirmationData).toMatchObject({
      checkoutEventType: '01',
      checkoutEventStatus: '03',
      confirmationStatus: '02',
      confirmationReason: 'INSUFFICIENT_FUNDS',
      transactionAmount: { transactionAmount: '10.51', transactionCurrencyCode: 'AED' },
    });
    expect(record.confirmations[0]!.body.confirmationData.networkAuthorizationCode).toBeUndefined();
  });

  it('Visa checkouts and Direct Wallet payments (even Mastercard ones) send nothing', async () => {
    const server = await network();
    const visa = await checkoutPayment({ scheme: 'visa' });
    expect(visa.response.body.paymentMethod.brand).toBe('VISA');
    const direct = await authorizedWorld();
    const mcDirect = await seedMerchant({}, { directWallet: true });
    const order = await createOrder(
      { config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource },
      { kind: 'platform', subject: 'seed', permissions: new Set() },
      mcDirect.outletId,
      { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } },
    );
    const mcWorld = { ...mcDirect, orderRef: order.orderRef, paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef };
    const paid = await payDirectly(
      mcWorld,
      token,
      tokenData({ token: { paymentToken: '5204731600014792', tokenExpirationMonth: '08', tokenExpirationYear: '2030' }, brand: 'MASTERCARD', eci: '02' }),
    );
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', paymentMethod: { type: 'DIRECT_WALLET', brand: 'MASTERCARD' } });
    expect((((await storedItem(paymentKey(mcWorld)))?.outbox ?? []) as { kind?: string }[]).some((entry) => entry.kind)).toBe(false);
    await sweepAll(worker(server.url));
    expect(server.requests()).toBe(0);
    expect((await networkRecord(visa.srcCorrelationId)).receipts).toBe(0);
    for (const merchantRef of [visa.world.merchantRef, direct.merchantRef, mcDirect.merchantRef])
      expect(await confirmationRepository().list(merchantRef)).toEqual([]);
  });

  it('a 3DS step-up confirms nothing until 4.10 ends the checkout: authenticated → authorised, failed → declined', async () => {
    const server = await network();
    const passed = await checkoutPayment({ eci: '00' }); // Mastercard 00: not authenticated → step-up (risk-based)
    const failed = await checkoutPayment({ eci: '00' });
    expect([passed.response.body.state, failed.response.body.state]).toEqual(['AWAIT_3DS', 'AWAIT_3DS']);
    const deps = worker(server.url);
    await sweepAll(deps);
    expect(server.requests()).toBe(0);
    const good = await answerChallenge(passed.response.body.threeDs, '1234');
    expect((await completeThreeDs(passed.world, token, good.cres!)).body.state).toBe('AUTHORISED');
    const bad = await answerChallenge(failed.response.body.threeDs, '0000');
    expect((await completeThreeDs(failed.world, token, bad.cres!)).body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
    clock = Date.now();
    await sweepAll(deps);
    const authorised = await networkRecord(passed.srcCorrelationId);
    expect(
      authorised.confirmations.map((c) => [c.body.confirmationData.checkoutEventType, c.body.confirmationData.confirmationStatus, c.body.srciTransactionId]),
    ).toEqual([['01', '01', passed.srciTransactionId]]);
    const declined = await networkRecord(failed.srcCorrelationId);
    expect(declined.confirmations.map((c) => [c.body.confirmationData.confirmationStatus, c.body.confirmationData.confirmationReason])).toEqual([
      ['02', 'THREE_DS_FAILED'],
    ]);
  });

  it('an abandoned Mastercard lease settled by a later attempt is confirmed with the SRC ids its lease recorded', async () => {
    const server = await network();
    const merchant = await seedMerchant();
    const order = await createOrder(
      { config: configRepository, orders: orderRepository, now: Date.now, represent: toPaymentResource },
      { kind: 'platform', subject: 'seed', permissions: new Set() },
      merchant.outletId,
      { action: 'AUTH', amount: { currencyCode: 'AED', value: 1000 } },
    );
    const world = { ...merchant, orderRef: order.orderRef, paymentRef: (order.payments[0] as { paymentRef: string }).paymentRef };
    const leaseMs = paymentDeps.settings.leaseMs;
    paymentDeps.settings.leaseMs = 200; // abandoned = expired, then one more lease period
    try {
      const payment = (await paymentRepository.get(world.orderRef, world.paymentRef))!;
      const masked = { type: 'CLICK_TO_PAY' as const, brand: 'MASTERCARD', tokenLastFour: '4792', expiry: '2030-08' };
      const srcCheckout = { network: 'sandbox', srcCorrelationId: `abandoned-${world.paymentRef}` };
      // A 4.3 attempt took the lease, the acquirer approved, and the holder died before its final write.
      await paymentRepository.acquireLease(payment, {
        from: 'STARTED',
        requires: LEASE_RULE.fresh('STARTED'),
        leaseId: 'dead-holder',
        leaseUntil: Date.now() + 200,
        now: Date.now(),
        credential: 'checkout:lost',
        masked,
        srcCheckout,
      });
      await authorizer.authorize(
        {
          idempotencyKey: world.paymentRef,
          orderRef: world.orderRef,
          credential: { kind: 'token', number: '5204731600014792', expiryMonth: '08', expiryYear: '2030', cryptogram: 'x' },
          brand: 'MASTERCARD',
          eci: '02',
          amount: payment.amount,
          capture: false,
          payerIp: undefined,
        },
        AbortSignal.timeout(5_000),
      );
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect((await pay(world, token, await checkoutResponse())).status).toBe(409); // another card: the approval is recorded instead
    } finally {
      paymentDeps.settings.leaseMs = leaseMs;
    }
    expect(await paymentRepository.get(world.orderRef, world.paymentRef)).toMatchObject({ state: 'AUTHORISED', paymentMethod: { brand: 'MASTERCARD' } });
    await sweepAll(worker(server.url));
    const record = await networkRecord(`abandoned-${world.paymentRef}`);
    expect(record.confirmations.map((c) => [c.body.confirmationData.checkoutEventType, c.body.confirmationData.confirmationStatus])).toEqual([['01', '01']]);
  });

  it('two workers at once send a confirmation once (the claim)', async () => {
    const server = await network();
    const { srcCorrelationId } = await checkoutPayment();
    const deps = worker(server.url);
    await Promise.all([sweepAll(deps), sweepAll(deps), sweepAll(deps)]);
    expect((await networkRecord(srcCorrelationId)).receipts).toBe(1);
    expect(server.requests()).toBe(1);
  });
});

describe('Mastercard confirmations are asynchronous and retried', () => {
  it('a 5xx from the network is retried after the backoff delay, then confirmed', async () => {
    const server = await network();
    const { world, srcCorrelationId } = await checkoutPayment();
    const deps = worker(server.url);
    server.failNext(1, 503);
    await sweepAll(deps);
    const id = confirmationId(world.paymentRef, 'AUTHORISATION');
    let stored = await confirmationRepository().get(world.merchantRef, id);
    expect(stored).toMatchObject({ status: 'PENDING', failures: 1, dueAt: clock + 5_000 });
    expect(stored!.attempts).toEqual([expect.objectContaining({ status: 503 })]);
    expect((await networkRecord(srcCorrelationId)).receipts).toBe(0);
    await sweepAll(deps); // not due yet
    expect(server.requests()).toBe(1);
    clock += 5_000;
    await sweepAll(deps);
    stored = await confirmationRepository().get(world.merchantRef, id);
    expect(stored).toMatchObject({ status: 'DELIVERED', failures: 1 });
    expect(stored!.attempts.map((a) => a.status)).toEqual([503, 204]);
    expect((await networkRecord(srcCorrelationId)).receipts).toBe(1);
  });

  it('4.3 answers while the network is frozen; the confirmation arrives once it thaws (a timed-out send is retried, the network keeps one)', async () => {
    const server = await network();
    server.freeze();
    const { world, response, srcCorrelationId } = await checkoutPayment(); // answered although the network hangs
    expect(response.body.state).toBe('AUTHORISED');
    expect(server.requests()).toBe(0); // nothing was sent in the request path
    const outbox = (await storedItem(paymentKey(world)))?.outbox as { kind?: string; id: string }[];
    expect(outbox.filter((entry) => entry.kind === 'NETWORK_CONFIRMATION').map((entry) => entry.id)).toEqual([
      confirmationId(world.paymentRef, 'AUTHORISATION'),
    ]);

    const deps = worker(server.url);
    await sweepAll(deps); // the send times out (1 s): a failed attempt, due again later
    const id = confirmationId(world.paymentRef, 'AUTHORISATION');
    expect(await confirmationRepository().get(world.merchantRef, id)).toMatchObject({
      status: 'PENDING',
      failures: 1,
      attempts: [expect.objectContaining({ error: 'timeout' })],
    });
    server.thaw(); // the held request lands late: the network records it
    await vi.waitFor(async () => expect((await networkRecord(srcCorrelationId)).receipts).toBe(1));
    clock += 5_000;
    await sweepAll(deps); // the retry: same id, so the network still has one confirmation
    expect(await confirmationRepository().get(world.merchantRef, id)).toMatchObject({ status: 'DELIVERED' });
    const record = await networkRecord(srcCorrelationId);
    expect(record.receipts).toBe(2);
    expect(record.confirmations).toHaveLength(1);
    expect(record.confirmations[0]!.body).toEqual((await networkRecord(srcCorrelationId)).confirmations[0]!.body);
  });

  it('after the last retry a confirmation is FAILED for good and counted', async () => {
    const server = await network();
    const count = vi.spyOn(metrics, 'count');
    const { world } = await checkoutPayment();
    const deps = worker(server.url, [5_000]);
    server.failNext(5, 500);
    await sweepAll(deps);
    clock += 5_000;
    await sweepAll(deps);
    const stored = await confirmationRepository().get(world.merchantRef, confirmationId(world.paymentRef, 'AUTHORISATION'));
    expect(stored).toMatchObject({ status: 'FAILED', failures: 1 });
    expect(stored!.attempts.map((a) => a.status)).toEqual([500, 500]);
    expect(count).toHaveBeenCalledWith(METRIC.networkConfirmations, { outcome: 'retrying' });
    expect(count).toHaveBeenCalledWith(METRIC.networkConfirmations, { outcome: 'failed' });
  });

  it('a confirmation for a network without a client fails its attempts (never sent elsewhere)', async () => {
    const server = await network();
    const { world } = await checkoutPayment();
    const deps = worker(server.url, [], { mastercard: new SandboxNetworkClient(server.url) });
    await sweepAll(deps);
    const stored = await confirmationRepository().get(world.merchantRef, confirmationId(world.paymentRef, 'AUTHORISATION'));
    expect(stored).toMatchObject({ status: 'FAILED', attempts: [expect.objectContaining({ error: 'no-network-client' })] });
    expect(server.requests()).toBe(0);
    expect((await storedItem({ pk: `CONFIRMATIONS#${world.merchantRef}`, sk: `${CONFIRMATION_SK_PREFIX}${stored!.id}` }))?.body).toContain(
      '"network":"sandbox"',
    );
  });
});
