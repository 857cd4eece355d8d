import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ThreeDsServerCallError } from '../../lib/core/ports/three-ds-server-error.js';
import { ThreeDSecureIoServer } from '../../lib/adapters/three-ds/threedsecure-io/server.js';
import { account, formOf, postForm, prepared, seconds, startHarness, type Harness } from './support.js';

/**
 * Deadlines and at-most-once against a 3DS Server that hangs, fails, resets or loses answers
 * (decisions.ts: /auth faults by amount; faults.ts: injected ones). A lost AReq answer is
 * recovered by the transaction id (/postauth), and the fake's ledger shows the AReq reached it
 * once — recovery never sends it again.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ creqTimeoutMs: 300, slowMs: 1500 });
});
afterAll(() => h.close());

const callError = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ThreeDsServerCallError,
  );
const deadline = (ms: number) => AbortSignal.timeout(ms);

describe('/auth that gives no usable answer is maybe-sent', () => {
  it('a hung 3DS Server: the call ends at its deadline', async () => {
    const { request } = await prepared(h, '2100', { amount: { value: 1061, currencyCode: 'AED' } });
    const started = Date.now();
    const error = await callError(h.server.authenticate(request, deadline(300)));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(ThreeDsServerCallError);
    expect(error).toMatchObject({ kind: 'maybe-sent', endpoint: '/auth' });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(0);
  });

  it('a 503 without an Erro, and a connection reset after the request', async () => {
    for (const value of [1062, 1063]) {
      const { request } = await prepared(h, '2100', { amount: { value, currencyCode: 'AED' } });
      expect(await callError(h.server.authenticate(request, seconds(5)))).toMatchObject({ kind: 'maybe-sent' });
    }
  });

  it('an answer later than the deadline: processed at the server, unknown to us', async () => {
    const { request } = await prepared(h, '2100', { amount: { value: 1065, currencyCode: 'AED' } });
    expect(await callError(h.server.authenticate(request, deadline(300)))).toMatchObject({ kind: 'maybe-sent' });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(1);
  });
});

describe('recovery by the 3DS Server transaction id', () => {
  it('a frictionless ARes lost on the way back: processed once, nothing to recover, the attempt is spent — and no second AReq', async () => {
    const { request } = await prepared(h, '2100', { amount: { value: 1064, currencyCode: 'AED' } });
    expect(await callError(h.server.authenticate(request, seconds(5)))).toMatchObject({ kind: 'maybe-sent' });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(1);
    const recovered = await h.server.recover({ transactionId: request.transactionId, messageVersion: request.messageVersion, brand: 'VISA' }, seconds(5));
    expect(recovered).toEqual({ kind: 'spent', reason: 'no-result' });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(1);
    expect(h.fake.ledger.postauths).toContain(request.transactionId);
  });

  it('a challenge ARes lost: once the ACS gives up on the CReq (RReq N, challengeCancel 05) recovery reads that result', async () => {
    const { request } = await prepared(h, '2172', { amount: { value: 2064, currencyCode: 'AED' } });
    expect(await callError(h.server.authenticate(request, seconds(5)))).toMatchObject({ kind: 'maybe-sent' });
    const ref = { transactionId: request.transactionId, messageVersion: request.messageVersion, brand: 'VISA' as const };
    expect(await h.server.recover(ref, seconds(5))).toEqual({ kind: 'spent', reason: 'no-result' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await h.server.recover(ref, seconds(5))).toEqual({
      kind: 'result',
      result: { kind: 'failed', transStatus: 'N', transStatusReason: '01', challengeCancel: '05' },
    });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(1);
  });

  it('an AReq that never reached the server: the transaction is unknown to /postauth, the attempt spent', async () => {
    const { request } = await prepared(h, '2100', { amount: { value: 1063, currencyCode: 'AED' } });
    await callError(h.server.authenticate(request, seconds(5)));
    expect(await h.server.recover({ transactionId: request.transactionId, messageVersion: request.messageVersion, brand: 'VISA' }, seconds(5))).toEqual({
      kind: 'spent',
      reason: 'unknown-transaction',
    });
  });
});

describe('failures that certainly did not reach the 3DS Server are not-sent', () => {
  it('connection refused', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = new ThreeDSecureIoServer({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' });
    const error = await callError(closed.prepare({ brand: 'VISA', account: account('2100'), methodNotificationUrl: 'https://pay.example/m' }, seconds(5)));
    expect(error).toMatchObject({ kind: 'not-sent', endpoint: '/preauth' });
    expect(error?.certainlyNotSent).toBe(true);
  });

  it('a wrong API key (401 "Invalid API Key")', async () => {
    const wrongKey = new ThreeDSecureIoServer({ baseUrl: h.fake.apiUrl, apiKey: 'not-the-key' });
    expect(
      await callError(wrongKey.prepare({ brand: 'VISA', account: account('2100'), methodNotificationUrl: 'https://pay.example/m' }, seconds(5))),
    ).toMatchObject({ kind: 'not-sent', status: 401 });
  });

  it('a deadline already spent: nothing is sent', async () => {
    const { request } = await prepared(h, '2100');
    const spent = AbortSignal.abort();
    expect(await callError(h.server.authenticate(request, spent))).toMatchObject({ kind: 'not-sent' });
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(0);
  });
});

describe('preauth and postauth are bounded too, and safe to repeat', () => {
  it('a hung preauth ends at its deadline; the next one answers', async () => {
    h.fake.faults.inject('/preauth', 'hang');
    const error = await callError(h.server.prepare({ brand: 'VISA', account: account('2100'), methodNotificationUrl: 'https://pay.example/m' }, deadline(300)));
    expect(error).toMatchObject({ kind: 'maybe-sent', endpoint: '/preauth' });
    expect(await h.server.prepare({ brand: 'VISA', account: account('2100'), methodNotificationUrl: 'https://pay.example/m' }, seconds(5))).toMatchObject({
      kind: 'ready',
    });
  });

  it('a hung postauth ends at its deadline; asking again gives the RReq', async () => {
    const { request } = await prepared(h, '2170');
    const outcome = await h.server.authenticate(request, seconds(5));
    if (outcome.kind !== 'challenge') throw new Error('expected a challenge');
    const page = await postForm(outcome.acsUrl, { creq: outcome.creq });
    const answer = formOf(page.html, outcome.acsUrl);
    await postForm(answer.action, answer.fields);
    h.fake.faults.inject('/postauth', 'hang');
    expect(await callError(h.server.challengeResult(outcome.challenge, deadline(300)))).toMatchObject({ kind: 'maybe-sent', endpoint: '/postauth' });
    expect(await h.server.challengeResult(outcome.challenge, seconds(5))).toMatchObject({ kind: 'authenticated' });
  });
});

describe('the result is kept for a while only', () => {
  it('after 300 s the 3DS Server no longer knows the transaction: expired', async () => {
    let clock = Date.now();
    const timed = await startHarness({ now: () => clock });
    try {
      const { request } = await prepared(timed, '2170');
      const outcome = await timed.server.authenticate(request, seconds(5));
      if (outcome.kind !== 'challenge') throw new Error('expected a challenge');
      const page = await postForm(outcome.acsUrl, { creq: outcome.creq });
      const answer = formOf(page.html, outcome.acsUrl);
      await postForm(answer.action, answer.fields);
      clock += 301_000;
      expect(await timed.server.challengeResult(outcome.challenge, seconds(5))).toEqual({ kind: 'expired' });
    } finally {
      await timed.close();
    }
  });
});
