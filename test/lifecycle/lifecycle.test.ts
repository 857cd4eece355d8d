import { beforeAll, describe, expect, it } from 'vitest';
import { paymentResource } from '../../lib/http/resource-schemas.js';
import { acquirerRecord, aed, authorizedWorld, capture, readOrderAs, refund, reverse } from '../support/lifecycle.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

describe('4.11 captures', () => {
  it('captures in parts, then the rest: PARTIALLY_CAPTURED → CAPTURED, totals and list follow', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const first = await capture(w, token, aed(300));
    expect(first.status, first.raw).toBe(201);
    expect(paymentResource.parse(first.body)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 300 }, refundedAmount: { value: 0 } });
    const second = await capture(w, token, aed(200));
    expect(second.body).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 500 } });
    const rest = await capture(w, token); // no body: all that is left
    expect(rest.status).toBe(201);
    expect(paymentResource.parse(rest.body)).toMatchObject({ state: 'CAPTURED', capturedAmount: { currencyCode: 'AED', value: 1000 } });
    expect(rest.body.captures.map((c: { amount: { value: number }; state: string }) => [c.amount.value, c.state])).toEqual([
      [300, 'SUCCEEDED'],
      [200, 'SUCCEEDED'],
      [500, 'SUCCEEDED'],
    ]);
    for (const c of rest.body.captures) expect(await acquirerRecord(c.captureRef)).toMatchObject({ operation: 'CAPTURE', calls: 1, paymentRef: w.paymentRef });
    const order = await readOrderAs(w, token);
    expect(order.body.state).toBe('CAPTURED'); // the order follows its payment
    expect(order.body.payments[0]).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 1000 } });
  });

  it('refuses more than is left (422 AMOUNT_EXCEEDS_AVAILABLE), a foreign currency (422), and a captured payment (409)', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const over = await capture(w, token, aed(1001));
    expect([over.status, over.body.code]).toEqual([422, 'AMOUNT_EXCEEDS_AVAILABLE']);
    const currency = await capture(w, token, { amount: { currencyCode: 'USD', value: 10 } });
    expect([currency.status, currency.body.code]).toEqual([422, 'AMOUNT_MISMATCH']);
    expect((await capture(w, token, aed(1000))).status).toBe(201);
    const again = await capture(w, token, aed(1));
    expect([again.status, again.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
  });

  it('refuses a payment that is not authorized (409) and bad bodies (400)', async () => {
    const w = await seedWorld();
    const started = await capture(w, token, aed(100));
    expect([started.status, started.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    for (const body of [
      { amount: { currencyCode: 'AED', value: 0 } },
      { amount: { currencyCode: 'AED', value: -5 } },
      { amount: { currencyCode: 'AED', value: 1.5 } },
      { amount: 5 },
      { extra: true },
    ]) {
      const bad = await capture(w, token, body);
      expect([bad.status, bad.body.code], JSON.stringify(body)).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('10 concurrent partial captures that together exceed the authorization: the total never exceeds it, each sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => capture(w, token, aed(150))));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(accepted).toHaveLength(6); // 6 × 150 = 900 ≤ 1000 < 7 × 150
    for (const r of refused) expect(r.body.code).toBe('AMOUNT_EXCEEDS_AVAILABLE');
    const order = await readOrderAs(w, token);
    const payment = order.body.payments[0];
    expect(payment.capturedAmount.value).toBe(900);
    expect(payment.state).toBe('PARTIALLY_CAPTURED');
    const succeeded = payment.captures.filter((c: { state: string }) => c.state === 'SUCCEEDED');
    expect(succeeded).toHaveLength(6);
    for (const c of payment.captures) expect((await acquirerRecord(c.captureRef))?.calls).toBe(1);
  });
});

describe('4.12 reversal', () => {
  it('voids an untouched authorization: AUTHORISED → REVERSED; nothing can follow', async () => {
    const w = await authorizedWorld();
    const reversed = await reverse(w, token);
    expect(reversed.status, reversed.raw).toBe(200);
    expect(paymentResource.parse(reversed.body)).toMatchObject({ state: 'REVERSED', capturedAmount: { value: 0 }, reversal: { state: 'SUCCEEDED' } });
    expect(await acquirerRecord(reversed.body.reversal.reversalRef)).toMatchObject({ operation: 'REVERSAL', calls: 1 });
    expect((await capture(w, token, aed(1))).body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect((await refund(w, token, aed(1))).body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect((await reverse(w, token)).body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('is refused once anything is captured (409), and takes no body (400)', async () => {
    const w = await authorizedWorld();
    await capture(w, token, aed(10));
    const late = await reverse(w, token);
    expect([late.status, late.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
  });

  it('races a capture: exactly one of them wins', async () => {
    const w = await authorizedWorld();
    const [c, r] = await Promise.all([capture(w, token, aed(100)), reverse(w, token)]);
    expect([201, 409]).toContain(c.status);
    expect([200, 409]).toContain(r.status);
    const order = await readOrderAs(w, token);
    const state = order.body.payments[0].state;
    if (c.status === 201) expect(state).toBe('PARTIALLY_CAPTURED');
    else expect(state).toBe('REVERSED');
    expect(c.status === 201).not.toBe(r.status === 200);
  });
});

describe('4.13 refunds', () => {
  it('refunds in parts and the rest: PARTIALLY_REFUNDED → REFUNDED, never more than captured', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(600));
    const over = await refund(w, token, aed(601));
    expect([over.status, over.body.code]).toEqual([422, 'AMOUNT_EXCEEDS_AVAILABLE']);
    const part = await refund(w, token, aed(100));
    expect(part.status, part.raw).toBe(201);
    expect(paymentResource.parse(part.body)).toMatchObject({ state: 'PARTIALLY_REFUNDED', refundedAmount: { value: 100 }, capturedAmount: { value: 600 } });
    const rest = await refund(w, token);
    expect(rest.body).toMatchObject({ state: 'REFUNDED', refundedAmount: { value: 600 } });
    expect(rest.body.refunds.map((r: { amount: { value: number } }) => r.amount.value)).toEqual([100, 500]);
    const more = await refund(w, token, aed(1));
    expect([more.status, more.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    // A refund ends capturing: the uncaptured 400 can no longer be captured.
    expect((await capture(w, token, aed(1))).body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('refuses an authorization with nothing captured (409)', async () => {
    const w = await authorizedWorld();
    const refused = await refund(w, token, aed(1));
    expect([refused.status, refused.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
  });

  it('a PURCHASE is CAPTURED at authorization and can be refunded', async () => {
    const w = await authorizedWorld({ action: 'PURCHASE', amount: 700 });
    const order = await readOrderAs(w, token);
    expect(paymentResource.parse(order.body.payments[0])).toMatchObject({
      state: 'CAPTURED',
      capturedAmount: { value: 700 },
      captures: [{ captureRef: w.paymentRef, state: 'SUCCEEDED' }],
    });
    expect((await capture(w, token, aed(1))).body.code).toBe('PAYMENT_STATE_CONFLICT');
    const refunded = await refund(w, token);
    expect(refunded.body).toMatchObject({ state: 'REFUNDED', refundedAmount: { value: 700 } });
  });

  it('8 concurrent refunds of 200 on 1000 captured: at most 1000 refunded, each sent once', async () => {
    const w = await authorizedWorld({ action: 'PURCHASE', amount: 1000 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(w, token, aed(200))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const payment = (await readOrderAs(w, token)).body.payments[0];
    expect(payment).toMatchObject({ state: 'REFUNDED', refundedAmount: { value: 1000 } });
    for (const r of payment.refunds) expect((await acquirerRecord(r.refundRef))?.calls).toBe(1);
  });
});

describe('Idempotency-Key on captures, reversals and refunds', () => {
  it('a replayed capture answers the stored result (Idempotent-Replayed) and captures once; another body → 422', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const headers = { 'idempotency-key': `cap-${Math.random()}` };
    const first = await capture(w, token, aed(250), { headers });
    const replay = await capture(w, token, aed(250), { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.body.captures).toHaveLength(1);
    expect((await acquirerRecord(first.body.captures[0].captureRef))?.calls).toBe(1);
    const other = await capture(w, token, aed(300), { headers });
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const refundHeaders = { 'idempotency-key': `ref-${Math.random()}` };
    const refunded = await refund(w, token, aed(50), { headers: refundHeaders });
    expect((await refund(w, token, aed(50), { headers: refundHeaders })).body).toEqual(refunded.body);
    expect(refunded.body.refunds).toHaveLength(1);
  });
});
