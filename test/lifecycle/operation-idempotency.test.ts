/**
 * SPEC 4.13's Idempotency-Key on captures, reversals and refunds: a key names one operation of
 * one payment, for one amount, also after 24 h and after a first use that was not stored; it is
 * never answered with another payment's or another amount's operation.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../support/sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../../lib/http/idempotency.js';
import { acquirerRecord, aed, authorizedWorld, capture, expectConsistent, storedPayment } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  lifecycleDeps.settings.authorizerTimeoutMs = 10_000;
  lifecycleDeps.settings.inFlightMs = 10_000;
});
const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('an operation’s Idempotency-Key names one operation of one payment', () => {
  it('one key on two payments: 422 on the second, never the first payment’s answer; each gets its own reference', async () => {
    const a = await authorizedWorld({ amount: 1000 });
    const b = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const first = await capture(a, token, aed(100), keyed(key));
    expect(first.status).toBe(201);
    const second = await capture(b, token, aed(100), keyed(key));
    expect([second.status, second.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await storedPayment(b)).capturedAmount).toBe(0);
    // A key whose first use was not stored (an error) is free: on another payment it names another operation.
    const failing = randomUUID();
    expect((await capture(a, token, aed(5000), keyed(failing))).status).toBe(422);
    const c = await capture(a, token, aed(10), keyed(failing));
    const d = await capture(b, token, aed(10), keyed(failing));
    expect([c.status, d.status]).toEqual([201, 422]);
    // A key whose first use is still unsettled (502, not stored) names, on another payment, another operation.
    const lost = randomUUID();
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new Error('socket hang up'));
    expect((await capture(a, token, aed(10), keyed(lost))).status).toBe(502);
    const onB = await capture(b, token, aed(10), keyed(lost));
    expect(onB.status, onB.raw).toBe(201);
    const pendingOnA = Object.entries((await storedPayment(a)).operations ?? {})
      .filter(([, o]) => o.state === 'PENDING')
      .map(([ref]) => ref);
    expect(pendingOnA).toHaveLength(1);
    expect(onB.body.captures.map((x: { captureRef: string }) => x.captureRef)).not.toContain(pendingOnA[0]);
  });

  it('a capture key replayed after 24 h runs again but names the same operation: captured once, sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const start = Date.now();
    const first = await capture(w, token, aed(250), keyed(key));
    expect(first.status).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'], now: start + (IDEMPOTENCY_WINDOW_SECONDS + 5) * 1000 });
    const late = await capture(w, await platformToken(), aed(250), keyed(key));
    expect(late.status, late.raw).toBe(201);
    expect(late.headers['Idempotent-Replayed']).toBeUndefined();
    expect(late.body.captures).toHaveLength(1);
    expect(late.body.capturedAmount.value).toBe(250);
    expect(await acquirerRecord(first.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
  });

  it('the same key with another amount after its first use was not stored (502) is 422, not the first amount’s capture', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    const w = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const real = authorizer.modify.bind(authorizer);
    vi.spyOn(authorizer, 'modify').mockImplementationOnce(async (request, signal) => {
      await real(request, signal);
      throw new Error('socket hang up'); // the capture of 300 happened; its answer was lost
    });
    expect((await capture(w, token, aed(300), keyed(key))).status).toBe(502);
    const other = await capture(w, token, aed(700), keyed(key));
    expect([other.status, other.body.code], other.raw).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const same = await capture(w, token, aed(300), keyed(key));
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ capturedAmount: { value: 300 }, captures: [{ amount: { value: 300 }, state: 'SUCCEEDED' }] });
    await expectConsistent(w);
  });

  it('after 24 h, another amount under an old key is 422, never a 201 for a capture that did not happen', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const start = Date.now();
    expect((await capture(w, token, aed(250), keyed(key))).status).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'], now: start + (IDEMPOTENCY_WINDOW_SECONDS + 5) * 1000 });
    const later = await platformToken();
    const other = await capture(w, later, aed(400), keyed(key));
    expect([other.status, other.body.code], other.raw).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await storedPayment(w)).capturedAmount).toBe(250);
    // Omitted amount ("the rest") names no amount: the retry of such a request still gets its operation.
    const rest = randomUUID();
    const all = await capture(w, later, undefined, keyed(rest));
    expect(all.body.capturedAmount.value).toBe(1000);
    vi.setSystemTime(start + 2 * (IDEMPOTENCY_WINDOW_SECONDS + 5) * 1000);
    const again = await capture(w, await platformToken(), undefined, keyed(rest));
    expect([again.status, again.body.capturedAmount?.value]).toEqual([201, 1000]);
  });
});
