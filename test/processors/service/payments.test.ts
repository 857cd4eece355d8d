import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentDeps } from '../../../lib/composition/payments.js';
import { lifecycleDeps } from '../../../lib/composition/lifecycle.js';
import { configRepository } from '../../../lib/composition/core.js';
import { aed, capture, readOrderAs, refund, reverse } from '../../support/lifecycle.js';
import { tokenData } from '../../support/direct-wallet.js';
import { payDirectly } from '../../support/payments.js';
import { announced, processorWorld, type ProcessorName, type ProcessorWorld } from '../../support/processor-world.js';
import { platformToken } from '../../support/tokens.js';

/**
 * Issue 20 item 7: a production merchant paid through each processor's faithful fake, end to
 * end through the service's handlers — every outcome and every fault of SPEC 4.16, and each
 * fake's ledger showing every operation performed at most once.
 */
let token: string;
const defaults = { ...paymentDeps.settings };
const lifecycleDefaults = { ...lifecycleDeps.settings };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  token = await platformToken();
});

describe.each(['adyen', 'checkout_com'] as ProcessorName[])('%s: authorizations', (name) => {
  let world: ProcessorWorld;
  const fake = () => (world.adyen ?? world.checkoutCom)!;

  beforeAll(async () => {
    world = await processorWorld(name);
  });
  afterEach(() => {
    Object.assign(paymentDeps.settings, defaults);
    fake().clearFaults();
    // Every request the service sent matched the processor's published schema.
    expect(fake().rejections).toEqual([]);
  });
  afterAll(() => world.close());

  const pay = async (value: number, data = tokenData()) => {
    const ids = await world.order(value);
    return { ids, response: await payDirectly(ids, token, data) };
  };

  it('approves: AUTHORISED with the processor’s authorization code, performed once', async () => {
    const { ids, response } = await pay(1000);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'AUTHORISED', authorization: { code: expect.any(String), resultCode: expect.any(String) } });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it('a PURCHASE is authorized and captured by the processor in one operation', async () => {
    const ids = await world.order(2500, 'PURCHASE');
    const response = await payDirectly(ids, token, tokenData());
    expect(response.body).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 2500 } });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it.each([
    [1051, 'INSUFFICIENT_FUNDS', { adyen: 'adyen:12/51', checkout_com: 'checkout_com:20051' }, true],
    [1005, 'DO_NOT_HONOUR', { adyen: 'adyen:27/05', checkout_com: 'checkout_com:20005' }, true],
    [1054, 'CARD_EXPIRED', { adyen: 'adyen:6/54', checkout_com: 'checkout_com:20054' }, true],
    [1041, 'LOST_OR_STOLEN', { adyen: 'adyen:5/41', checkout_com: 'checkout_com:30041' }, false],
  ])('declines amount %i as %s: the raw code kept, the processor’s text never shown, retryable as the reason says', async (value, code, raw, retryable) => {
    const { ids, response } = await pay(value);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'FAILED', failure: { code, processorCode: raw[name] }, retryable });
    expect(response.raw).not.toMatch(/Refused by the fake|Insufficient funds :|response_summary|Declined"/);
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it('a processor that never answers: 502 (retryable), and the same request recovers, performing it once', async () => {
    paymentDeps.settings.authorizerTimeoutMs = 400;
    paymentDeps.settings.inFlightMs = 300;
    const ids = await world.order(1000);
    fake().setFault('hang', { path: /^\/payments$/ });
    const first = await payDirectly(ids, token, tokenData());
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(world.performed(ids.paymentRef)).toEqual([]); // it hung without performing
    await sleep(350); // the in-flight window: before it, nothing is sent again
    const again = await payDirectly(ids, token, tokenData());
    expect(again.body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it.each(['lose-answer', 'reset-after-receipt', 'server-error-after-perform'] as const)(
    'after %s the same request gets the processor’s first answer: never authorized twice',
    async (fault) => {
      paymentDeps.settings.authorizerTimeoutMs = 600;
      const ids = await world.order(1000);
      fake().setFault(fault, { path: /^\/payments$/ });
      const first = await payDirectly(ids, token, tokenData());
      expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
      expect(world.performed(ids.paymentRef)).toHaveLength(1); // performed, the answer lost
      const again = await payDirectly(ids, token, tokenData());
      expect(again.body).toMatchObject({ state: 'AUTHORISED' });
      expect(world.performed(ids.paymentRef)).toHaveLength(1);
    },
  );

  it('a 5xx without performing: 502, then recovered once the request can no longer land', async () => {
    paymentDeps.settings.inFlightMs = 300;
    const ids = await world.order(1000);
    fake().setFault('server-error', { path: /^\/payments$/ });
    expect((await payDirectly(ids, token, tokenData())).status).toBe(502);
    await sleep(350);
    expect((await payDirectly(ids, token, tokenData())).body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it('a refused connection certainly sent nothing: the payment is free at once, the retry authorizes', async () => {
    const ids = await world.order(1000);
    await fake().setRefusing(true);
    try {
      const first = await payDirectly(ids, token, tokenData());
      expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    } finally {
      await fake().setRefusing(false);
    }
    expect((await payDirectly(ids, token, tokenData())).body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it('concurrent submissions of one payment reach the processor once', async () => {
    const ids = await world.order(1000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => payDirectly(ids, token, tokenData())));
    expect(answers.filter((a) => a.status === 200 && a.body.state === 'AUTHORISED').length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });

  it('every request carries the idempotency key derived from the operation’s own reference', async () => {
    const { ids } = await pay(1000);
    const header = name === 'adyen' ? 'idempotency-key' : 'cko-idempotency-key';
    const sent = (world.adyen?.requests ?? world.checkoutCom!.requests).filter((request) => request.method === 'POST' && request.path === '/payments');
    expect(sent.at(-1)!.headers[header]).toBe(`authorize:${ids.paymentRef}`);
  });
});

describe.each(['adyen', 'checkout_com'] as ProcessorName[])('%s: a pending authorization', (name) => {
  let world: ProcessorWorld;

  beforeAll(async () => {
    world = await processorWorld(name);
  });
  afterAll(() => world.close());

  it('is neither AUTHORISED nor FAILED: 502 with Retry-After, then settled by the processor (notification or recovery), sent once', async () => {
    const ids = await world.order(1077);
    if (world.adyen) world.adyen.notifier.mode = 'hold';
    const first = await payDirectly(ids, token, tokenData());
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(first.headers['Retry-After']).toBeDefined();
    // Asked again before the processor decided: still pending, nothing sent again.
    const early = await payDirectly(ids, token, tokenData());
    expect(early.status).toBe(502);
    if (world.adyen) world.adyen.notifier.release();
    else world.checkoutCom!.settlePending(world.checkoutCom!.ledger.find((entry) => entry.reference === ids.paymentRef)!.id, true);
    await world.settled();
    const settled = await payDirectly(ids, token, tokenData());
    expect(settled.body).toMatchObject({ state: 'AUTHORISED' });
    expect(world.performed(ids.paymentRef)).toHaveLength(1);
  });
});

describe.each(['adyen', 'checkout_com'] as ProcessorName[])('%s: a merchant whose processor cannot be set up', (name) => {
  let world: ProcessorWorld;

  beforeAll(async () => {
    world = await processorWorld(name);
  });
  afterAll(() => world.close());

  it('answers 502 (retryable) and holds nothing when its credentials secret is unreadable', async () => {
    const merchant = (await configRepository.getMerchant(world.merchantRef))!;
    const gone = {
      ...merchant,
      processor: { ...merchant.processor!, credentialsArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:click-to-pay/test/processors/missing-AbCdEf' },
    };
    await configRepository.putMerchant(gone);
    try {
      const ids = await world.order(1000);
      const response = await payDirectly(ids, token, tokenData());
      expect([response.status, response.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
      expect(response.raw).not.toContain('arn:aws');
      expect(world.performed(ids.paymentRef)).toEqual([]);
      await configRepository.putMerchant(merchant);
      expect((await payDirectly(ids, token, tokenData())).body).toMatchObject({ state: 'AUTHORISED' }); // nothing was held
    } finally {
      await configRepository.putMerchant(merchant);
    }
  });
});

describe.each(['adyen', 'checkout_com'] as ProcessorName[])('%s: a capture that never gets an answer', (name) => {
  let world: ProcessorWorld;
  const fake = () => (world.adyen ?? world.checkoutCom)!;

  beforeAll(async () => {
    world = await processorWorld(name);
  });
  afterEach(() => {
    Object.assign(lifecycleDeps.settings, lifecycleDefaults);
    fake().clearFaults();
  });
  afterAll(() => world.close());

  it('hangs: 502; the same request after the in-flight window recovers it and performs it once', async () => {
    const ids = await world.order(1000);
    expect((await payDirectly(ids, token, tokenData())).body.state).toBe('AUTHORISED');
    lifecycleDeps.settings.authorizerTimeoutMs = 400;
    lifecycleDeps.settings.inFlightMs = 300;
    fake().setFault('hang', { path: /\/captures$/ });
    const key = { headers: { 'idempotency-key': `hang-${ids.paymentRef}` } };
    const first = await capture(ids, token, aed(1000), key);
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    await sleep(800);
    const again = await capture(ids, token, aed(1000), key);
    expect(again.status).toBe(201);
    await world.settled();
    const after = (await readOrderAs(ids, token)).body.payments[0];
    expect(after).toMatchObject({ state: 'CAPTURED', captures: [{ state: 'SUCCEEDED' }] });
    expect(world.performed(after.captures[0].captureRef)).toHaveLength(1);
  });
});

describe.each(['adyen', 'checkout_com'] as ProcessorName[])('%s: captures, reversals and refunds', (name) => {
  let world: ProcessorWorld;
  const fake = () => (world.adyen ?? world.checkoutCom)!;

  beforeAll(async () => {
    world = await processorWorld(name);
  });
  afterEach(() => {
    Object.assign(lifecycleDeps.settings, lifecycleDefaults);
    fake().clearFaults();
    expect(fake().rejections).toEqual([]);
  });
  afterAll(() => world.close());

  const authorized = async (value = 1000) => {
    const ids = await world.order(value);
    expect((await payDirectly(ids, token, tokenData())).body.state).toBe('AUTHORISED');
    return ids;
  };
  /** The order once the processor's reports are in (Adyen settles modifications by notification). */
  const settledPayment = async (ids: Awaited<ReturnType<typeof authorized>>) => {
    await world.settled();
    const order = await readOrderAs(ids, token);
    return order.body.payments[0];
  };
  const operations = (ids: { paymentRef: string }, kind: string) =>
    world.adyen
      ? world.adyen.ledger.filter((entry) => entry.operation === kind && entry.paymentPspReference !== undefined && entry.reference !== ids.paymentRef)
      : world.checkoutCom!.ledger.filter((entry) => entry.operation === kind);

  it('captures in part, then the rest: PARTIALLY_CAPTURED, then CAPTURED, each capture performed once', async () => {
    const ids = await authorized(1000);
    const first = await capture(ids, token, aed(400));
    expect(first.status).toBe(201);
    expect(first.body.captures[0]).toMatchObject({ amount: { value: 400 }, state: expect.stringMatching(/PENDING|SUCCEEDED/) });
    expect(await settledPayment(ids)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 400 } });
    const rest = await capture(ids, token);
    expect(rest.status).toBe(201);
    const after = await settledPayment(ids);
    expect(after).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 1000 } });
    for (const c of after.captures) expect(world.performed(c.captureRef)).toHaveLength(1);
  });

  it('concurrent captures beyond the amount: those that fit are performed once each, the rest refused before reaching the processor', async () => {
    const ids = await authorized(1000);
    const attempts = await Promise.all([0, 1, 2].map(() => capture(ids, token, aed(400))));
    const statuses = attempts.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 422]);
    expect(attempts.find((a) => a.status === 422)!.body.code).toBe('AMOUNT_EXCEEDS_AVAILABLE');
    const after = await settledPayment(ids);
    expect(after).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 800 } });
    expect(after.captures).toHaveLength(2);
    for (const c of after.captures) expect(world.performed(c.captureRef)).toHaveLength(1);
  });

  it('partial refunds add up to at most what was captured', async () => {
    const ids = await authorized(1000);
    await capture(ids, token);
    await settledPayment(ids);
    expect((await refund(ids, token, aed(300))).status).toBe(201);
    expect((await refund(ids, token, aed(300))).status).toBe(201);
    expect(await settledPayment(ids)).toMatchObject({ state: 'PARTIALLY_REFUNDED', refundedAmount: { value: 600 } });
    const excess = await refund(ids, token, aed(500));
    expect([excess.status, excess.body.code]).toEqual([422, 'AMOUNT_EXCEEDS_AVAILABLE']);
    const after = await settledPayment(ids);
    expect(after.refunds.map((r: { state: string }) => r.state)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    for (const r of after.refunds) expect(world.performed(r.refundRef)).toHaveLength(1);
    expect((await refund(ids, token)).status).toBe(201); // the 400 left
    expect(await settledPayment(ids)).toMatchObject({ state: 'REFUNDED', refundedAmount: { value: 1000 } });
  });

  it('reverses an authorization with nothing captured', async () => {
    const ids = await authorized(1000);
    expect((await reverse(ids, token)).status).toBe(200);
    const after = await settledPayment(ids);
    expect(after).toMatchObject({ state: 'REVERSED', reversal: { state: 'SUCCEEDED' } });
    expect(world.performed(after.reversal.reversalRef)).toHaveLength(1);
  });

  it('the webhooks follow the settled state: one payment.captured, announced when the capture settled', async () => {
    const ids = await authorized(1000);
    await capture(ids, token);
    await settledPayment(ids);
    expect((await announced(ids.orderRef, ids.paymentRef)).filter((type) => type === 'payment.captured')).toHaveLength(1);
  });

  it.each(['lose-answer', 'reset-after-receipt', 'server-error-after-perform'] as const)(
    'a capture whose answer is lost (%s): 502, the same request later recovers it — performed once',
    async (fault) => {
      const ids = await authorized(1000);
      lifecycleDeps.settings.authorizerTimeoutMs = 600; // a lost answer is given up on after this
      fake().setFault(fault, { path: /\/captures$/ });
      const key = { headers: { 'idempotency-key': `cap-${fault}-${ids.paymentRef}` } };
      const first = await capture(ids, token, aed(500), key);
      expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
      await world.settled();
      const again = await capture(ids, token, aed(500), key);
      expect(again.status).toBe(201);
      const after = await settledPayment(ids);
      expect(after).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 500 } });
      expect(after.captures).toHaveLength(1);
      expect(world.performed(after.captures[0].captureRef)).toHaveLength(1);
      expect(operations(ids, name === 'adyen' ? 'CAPTURE' : 'CAPTURE').filter((e) => e.reference === after.captures[0].captureRef)).toHaveLength(1);
    },
  );
});
