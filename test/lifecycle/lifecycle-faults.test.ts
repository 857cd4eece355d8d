import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../support/sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../lib/core/auth/principal.js';
import { AuthorizationUnavailableError, DependencyUnavailableError } from '../../lib/core/errors.js';
import { logger } from '../../lib/core/ports/logger.js';
import { modifyPayment } from '../../lib/core/operations/modify-payment.js';

import { OperationNotPerformedError } from '../../lib/core/ports/authorizer.js';
import { decline } from '../../lib/core/domain/decline.js';
import { acquirerRecord, aed, authorizedWorld, capture, readOrderAs, refund } from '../support/lifecycle.js';
import { sessionTokenFor } from '../support/sessions.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { StoreConflictError } from '../../lib/core/ports/store-conflict.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
  lifecycleDeps.settings.authorizerTimeoutMs = 10_000;
  lifecycleDeps.settings.inFlightMs = 10_000;
});

const key = (name: string) => ({ headers: { 'idempotency-key': `${name}-${Math.random()}` } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const onlyCapture = async (w: Parameters<typeof readOrderAs>[0]) => (await readOrderAs(w, token)).body.payments[0];

describe('lifecycle operations under acquirer faults: at most once, nothing lost', () => {
  it('no answer (amount ending 99): 502, the capture stays PENDING with its amount held; the same request is asked about, not re-sent, while the call may land', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    lifecycleDeps.settings.inFlightMs = 1_200;
    const k = key('timeout');
    const first = await capture(w, token, aed(199), k);
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(Number(first.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    const pending = await onlyCapture(w);
    expect(pending.captures).toMatchObject([{ amount: { value: 199 }, state: 'PENDING' }]);
    expect((await capture(w, token, aed(802))).body.code).toBe('AMOUNT_EXCEEDS_AVAILABLE'); // 199 is held
    const modify = vi.spyOn(authorizer, 'modify');
    const recover = vi.spyOn(authorizer, 'recover');
    const early = await capture(w, token, aed(199), k); // same key, within the window: asked, not re-sent
    expect(early.status).toBe(502);
    expect(modify).not.toHaveBeenCalled();
    expect(recover).toHaveBeenCalledWith(
      { operation: 'MODIFY', request: expect.objectContaining({ idempotencyKey: pending.captures[0].captureRef, kind: 'CAPTURE' }) },
      expect.anything(),
    );
    expect(await acquirerRecord(pending.captures[0].captureRef)).toBeUndefined();
  });

  it('an unanswered capture the acquirer never got: once its call cannot land any more, the same request sends it again under the same reference, and it is performed once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    lifecycleDeps.settings.inFlightMs = 600;
    const modify = vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new Error('socket hang up')); // lost on the way: ambiguous
    const k = key('resend');
    expect((await capture(w, token, aed(300), k)).status).toBe(502);
    const ref = (await onlyCapture(w)).captures[0].captureRef;
    expect((await capture(w, token, aed(300), k)).status).toBe(502); // may still land: not re-sent
    expect(modify).toHaveBeenCalledTimes(1);
    await sleep(900);
    const late = await capture(w, token, aed(300), k);
    expect(late.status, late.raw).toBe(201);
    expect(late.body).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 300 }, captures: [{ captureRef: ref, state: 'SUCCEEDED' }] });
    expect(modify).toHaveBeenCalledTimes(2);
    expect(modify.mock.calls.map(([request]) => request.idempotencyKey)).toEqual([ref, ref]);
    expect(await acquirerRecord(ref)).toMatchObject({ calls: 1 });
  });

  it('an operation given back as NOT_PERFORMED by the next operation is reserved and performed when its own request comes back; the key never pins the failure', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    lifecycleDeps.settings.inFlightMs = 100;
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new Error('connection reset'));
    const k = key('given-back');
    expect((await capture(w, token, aed(300), k)).status).toBe(502);
    await sleep(250);
    const next = await capture(w, token, aed(700));
    expect(next.status).toBe(201);
    expect(next.body.captures).toMatchObject([
      { amount: { value: 300 }, state: 'FAILED', failure: { code: 'NOT_PERFORMED' } },
      { amount: { value: 700 }, state: 'SUCCEEDED' },
    ]);
    const ref = next.body.captures[0].captureRef;
    const back = await capture(w, token, aed(300), k);
    expect(back.status, back.raw).toBe(201);
    expect(back.body).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 1000 } });
    expect(back.body.captures.find((c: { captureRef: string }) => c.captureRef === ref)).toMatchObject({ state: 'SUCCEEDED' });
    expect(await acquirerRecord(ref)).toMatchObject({ calls: 1 });
    const replay = await capture(w, token, aed(300), k);
    expect([replay.status, replay.headers['Idempotent-Replayed'], replay.body.capturedAmount.value]).toEqual([201, 'true', 1000]);
  });

  it('its own request comes back after the rest was captured: the true refusal (409, CAPTURED), and the operation stays FAILED NOT_PERFORMED', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    lifecycleDeps.settings.inFlightMs = 100;
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new Error('connection reset'));
    const k = key('taken');
    expect((await capture(w, token, aed(300), k)).status).toBe(502);
    await sleep(250);
    expect((await capture(w, token)).body.state).toBe('CAPTURED'); // the rest: everything, once the 300 is given back
    const back = await capture(w, token, aed(300), k);
    expect([back.status, back.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    expect((await onlyCapture(w)).captures[0]).toMatchObject({ state: 'FAILED', failure: { code: 'NOT_PERFORMED' } });
  });

  it('an answer lost after the acquirer captured: the retry with the same Idempotency-Key records it from lookup, sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const real = authorizer.modify.bind(authorizer);
    vi.spyOn(authorizer, 'modify').mockImplementationOnce(async (request, signal) => {
      await real(request, signal);
      throw new Error('socket hang up');
    });
    const k = key('lost');
    const first = await capture(w, token, aed(400), k);
    expect(first.status).toBe(502);
    const again = await capture(w, token, aed(400), k);
    expect(again.status, again.raw).toBe(201);
    expect(again.body).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 400 }, captures: [{ state: 'SUCCEEDED' }] });
    expect(await acquirerRecord(again.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
  });

  it('a pending operation nobody comes back for is settled from lookup by the next operation on the payment', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    lifecycleDeps.settings.inFlightMs = 100;
    const w = await authorizedWorld({ amount: 1000 });
    const real = authorizer.modify.bind(authorizer);
    vi.spyOn(authorizer, 'modify').mockImplementationOnce(async (request, signal) => {
      await real(request, signal);
      throw new Error('connection reset');
    });
    expect((await capture(w, token, aed(300))).status).toBe(502);
    await sleep(250);
    const next = await capture(w, token, aed(100));
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ capturedAmount: { value: 400 }, captures: [{ state: 'SUCCEEDED' }, { state: 'SUCCEEDED' }] });
  });

  it('an acquirer certainly not reached: 502, the capture FAILED and the amount free again at once; the same request performs it later', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new OperationNotPerformedError('refused before processing'));
    const k = key('not-reached');
    const failed = await capture(w, token, aed(1000), k);
    expect([failed.status, failed.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect((await onlyCapture(w)).captures).toMatchObject([{ state: 'FAILED', failure: { code: 'NOT_PERFORMED' } }]);
    const again = await capture(w, token, aed(1000), k);
    expect(again.status, again.raw).toBe(201);
    expect(again.body).toMatchObject({ state: 'CAPTURED', captures: [{ state: 'SUCCEEDED' }] });
    expect(await acquirerRecord(again.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
    expect((await capture(w, token, aed(1))).body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('without a key, a capture certainly not sent frees its amount at once for the next one', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new OperationNotPerformedError('refused before processing'));
    expect((await capture(w, token, aed(1000))).status).toBe(502);
    expect((await capture(w, token, aed(1000))).body.state).toBe('CAPTURED');
  });

  it('a declined refund: 201 with the refund FAILED, nothing refunded, the amount refundable again', async () => {
    const w = await authorizedWorld({ action: 'PURCHASE', amount: 500 });
    vi.spyOn(authorizer, 'modify').mockResolvedValueOnce({ kind: 'declined', decline: decline('PROCESSOR_REFUSED', 'sandbox:REFUND_NOT_ALLOWED') });
    const declined = await refund(w, token, aed(500));
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({
      state: 'CAPTURED',
      refundedAmount: { value: 0 },
      refunds: [{ state: 'FAILED', failure: { code: 'PROCESSOR_REFUSED', reason: 'Refused by the processor', processorCode: 'sandbox:REFUND_NOT_ALLOWED' } }],
    });
    expect((await refund(w, token, aed(500))).body.state).toBe('REFUNDED');
  });

  it('the write after the approval fails (DynamoDB): 503, and the retry records the approval from lookup', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(lifecycleDeps.operations, 'succeed').mockRejectedValueOnce(new DependencyUnavailableError());
    const k = key('write');
    const first = await capture(w, token, aed(250), k);
    expect([first.status, first.body.code]).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    const again = await capture(w, token, aed(250), k);
    expect(again.body).toMatchObject({ capturedAmount: { value: 250 }, captures: [{ state: 'SUCCEEDED' }] });
    expect(await acquirerRecord(again.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
  });
});

describe('a reservation that landed but was never sent (SPEC 4.13 "Operations after a fault"): one call to the acquirer, whatever the interleaving', () => {
  const platform = { kind: 'platform', subject: 'test', permissions: new Set() } as unknown as Principal;
  const facts = { logger };
  const ids = (w: Awaited<ReturnType<typeof authorizedWorld>>) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });

  /** As the late reservation leaves the item: PENDING, amount held, nobody claimed the call. */
  async function landedReservation(w: Awaited<ReturnType<typeof authorizedWorld>>, ref: string, amount: number) {
    const payment = (await lifecycleDeps.payments.get(w.orderRef, w.paymentRef))!;
    const at = Date.now();
    return lifecycleDeps.operations.reserve(payment, ref, {
      kind: 'CAPTURE',
      amount,
      state: 'PENDING',
      at: new Date(at).toISOString(),
      attemptId: randomUUID(),
      inFlightUntil: at + 20_000,
    });
  }

  /** The acquirer answers after `ms`, so that concurrent requests overlap its call. */
  function slowAcquirer(ms: number) {
    const real = authorizer.modify.bind(authorizer);
    return vi.spyOn(authorizer, 'modify').mockImplementation(async (request, signal) => {
      await sleep(ms);
      return real(request, signal);
    });
  }

  it('three retries of it at once: exactly one claims and calls; the others answer the result or 502 (in flight), never a second call', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const ref = randomUUID();
    await landedReservation(w, ref, 300);
    const modify = slowAcquirer(150);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => modifyPayment(lifecycleDeps, platform, ids(w), { kind: 'CAPTURE', ref, amount: { currencyCode: 'AED', value: 300 } }, facts)),
    );
    expect(modify).toHaveBeenCalledTimes(1);
    expect(results.some((r) => r.status === 'fulfilled' && r.value.operations?.[ref]?.state === 'SUCCEEDED')).toBe(true);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.operations?.[ref]?.state).toBe('SUCCEEDED');
      else expect(r.reason).toBeInstanceOf(AuthorizationUnavailableError);
    }
    expect(await acquirerRecord(ref)).toMatchObject({ calls: 1 });
    expect(await lifecycleDeps.payments.get(w.orderRef, w.paymentRef)).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: 300 });
  });

  it('the original request, still between its reservation and its claim, loses the claim to a retry: it answers the retry’s result, one call', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const ref = randomUUID();
    const input = { kind: 'CAPTURE' as const, ref, amount: { currencyCode: 'AED', value: 400 } };
    const claim = lifecycleDeps.operations.claim.bind(lifecycleDeps.operations);
    const modify = vi.spyOn(authorizer, 'modify');
    vi.spyOn(lifecycleDeps.operations, 'claim').mockImplementationOnce(async (...args) => {
      const retried = await modifyPayment(lifecycleDeps, platform, ids(w), input, facts); // the retry runs to the end meanwhile
      expect(retried.operations?.[ref]?.state).toBe('SUCCEEDED');
      return claim(...args);
    });
    const original = await modifyPayment(lifecycleDeps, platform, ids(w), input, facts);
    expect(original.operations?.[ref]?.state).toBe('SUCCEEDED');
    expect(original.capturedAmount).toBe(400);
    expect(modify).toHaveBeenCalledTimes(1);
    expect(await acquirerRecord(ref)).toMatchObject({ calls: 1 });
  });

  it('a late failure write, meant for the operation as it was before a claim, never lands on the claimed one', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const ref = randomUUID();
    const reserved = await landedReservation(w, ref, 250);
    const before = reserved.operations![ref]!;
    await lifecycleDeps.operations.claim(reserved, ref, {
      sentBy: randomUUID(),
      sentAt: new Date().toISOString(),
      inFlightUntil: Date.now() + 20_000,
      attemptId: before.attemptId!,
    });
    await expect(
      lifecycleDeps.operations.fail(reserved, ref, before, { code: 'NOT_PERFORMED', reason: 'late' }, new Date().toISOString()),
    ).rejects.toBeInstanceOf(StoreConflictError);
    const now = (await lifecycleDeps.payments.get(w.orderRef, w.paymentRef))!;
    expect(now.operations![ref]).toMatchObject({ state: 'PENDING' });
    expect(now.capturable).toBe(750);
  });

  it('a second claim of the same generation never lands: only one caller per reservation', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const ref = randomUUID();
    const reserved = await landedReservation(w, ref, 250);
    const send = () => ({
      sentBy: randomUUID(),
      sentAt: new Date().toISOString(),
      inFlightUntil: Date.now() + 20_000,
      attemptId: reserved.operations![ref]!.attemptId!,
    });
    const claims = await Promise.allSettled([1, 2, 3, 4].map(() => lifecycleDeps.operations.claim(reserved, ref, send())));
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(claims.filter((c) => c.status === 'rejected').every((c) => (c as PromiseRejectedResult).reason instanceof StoreConflictError)).toBe(true);
  });
});

describe('lifecycle access (SPEC §1)', () => {
  it('session tokens 403; missing permission 403; another tenant, outlet or unknown payment 404', async () => {
    const w = await authorizedWorld();
    const session = await sessionTokenFor(w);
    expect((await capture(w, session, aed(1))).body.code).toBe('PERMISSION_DENIED');
    const noCapture = await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_REFUND', 'CREATE_REVERSAL'] });
    expect((await capture(w, noCapture, aed(1))).body.code).toBe('PERMISSION_DENIED');
    expect((await refund(w, await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_CAPTURE'] }), aed(1))).body.code).toBe('PERMISSION_DENIED');
    const stranger = await tenantToken({ tenantRef: 'another-tenant', permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, stranger, aed(1))).status).toBe(404);
    const otherOutlet = await tenantToken({ tenantRef: w.tenantRef, outletIds: [w.otherOutletId], permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, otherOutlet, aed(1))).status).toBe(404);
    expect((await capture({ ...w, paymentRef: 'no-such-payment' }, token, aed(1))).status).toBe(404);
    const own = await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, own, aed(1))).status).toBe(201);
  });
});
