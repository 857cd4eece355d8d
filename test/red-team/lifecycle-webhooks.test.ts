/**
 * Red team: captures, reversals and refunds (SPEC 4.11–4.13, §3) and their Idempotency-Key,
 * attacked from outside through the handlers. Each test fails if the defence it names breaks.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../support/sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import type { Payment } from '../../lib/core/domain/payment.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../../lib/http/idempotency.js';
import { EventRepository } from '../../lib/adapters/dynamodb/event-repository.js';
import { drainOutbox } from '../../lib/core/outbox/worker.js';
import { acquirerRecord, aed, authorizedWorld, capture, refund, reverse } from '../support/lifecycle.js';
import { platformToken, tenantToken } from '../support/tokens.js';
import { outboxWorker } from '../support/outbox-worker.js';

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

type Ids = { orderRef: string; paymentRef: string };
const stored = async (w: Ids): Promise<Payment> => (await lifecycleDeps.payments.get(w.orderRef, w.paymentRef))!;
const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/**
 * The bookkeeping SPEC §3 promises, checked on the stored item: totals are the sums of the
 * SUCCEEDED operations, reservations account for every minor unit, nothing is over-drawn,
 * and the acquirer saw each operation at most once.
 */
async function expectConsistent(w: Ids) {
  const p = await stored(w);
  const ops = Object.entries(p.operations ?? {});
  const sum = (kind: string, state: string) => ops.filter(([, o]) => o.kind === kind && o.state === state).reduce((total, [, o]) => total + o.amount, 0);
  const reversed = ops.some(([, o]) => o.kind === 'REVERSAL' && o.state === 'SUCCEEDED');
  const reversing = ops.some(([, o]) => o.kind === 'REVERSAL' && o.state === 'PENDING');
  expect(p.capturedAmount).toBe(sum('CAPTURE', 'SUCCEEDED'));
  expect(p.refundedAmount).toBe(sum('REFUND', 'SUCCEEDED'));
  expect(p.capturedAmount!).toBeLessThanOrEqual(p.amount.value);
  expect(p.refundedAmount!).toBeLessThanOrEqual(p.capturedAmount!);
  if (reversed) {
    expect(p.state).toBe('REVERSED');
    expect(p.capturedAmount).toBe(0);
  } else if (!reversing) {
    expect(p.capturable! + p.capturedAmount! + sum('CAPTURE', 'PENDING')).toBe(p.amount.value);
  }
  expect(p.refundable! + p.refundedAmount! + sum('REFUND', 'PENDING')).toBe(p.capturedAmount);
  expect(p.capturable!).toBeGreaterThanOrEqual(0);
  expect(p.refundable!).toBeGreaterThanOrEqual(0);
  for (const [ref, op] of ops) {
    if (ref === p.paymentRef) continue; // a PURCHASE's sale is the authorization itself
    const record = await acquirerRecord(ref);
    if (op.state === 'SUCCEEDED') expect(record, `${op.kind} ${ref}`).toMatchObject({ calls: 1, operation: op.kind, paymentRef: p.paymentRef });
    else expect(record?.calls ?? 0, `${op.kind} ${ref}`).toBeLessThanOrEqual(1);
  }
  return p;
}

describe('RT-L: concurrency mixes never over-capture, over-refund or double-send', () => {
  it('held: partial captures, "capture the rest", refunds and a reversal, all at once', async () => {
    for (let round = 0; round < 3; round++) {
      const w = await authorizedWorld({ amount: 1000 });
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => capture(w, token, aed(150))),
        capture(w, token),
        capture(w, token),
        reverse(w, token),
        ...Array.from({ length: 4 }, () => refund(w, token, aed(100))),
        refund(w, token),
      ]);
      for (const a of answers) expect([200, 201, 409, 422, 503], a.raw).toContain(a.status); // 503: the outbox gate (RT-L2)
      const p = await expectConsistent(w);
      expect(Object.values(p.operations ?? {}).every((o) => o.state !== 'PENDING')).toBe(true);
    }
  });

  it('held: the same mix while the acquirer hangs on some captures and refunds (amounts ending 99)', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    lifecycleDeps.settings.inFlightMs = 300;
    const w = await authorizedWorld({ amount: 5000 });
    await capture(w, token, aed(1000));
    const answers = await Promise.all([
      capture(w, token, aed(199)),
      capture(w, token, aed(300)),
      capture(w, token),
      refund(w, token, aed(299)),
      refund(w, token, aed(200)),
      reverse(w, token),
    ]);
    expect(answers.filter((a) => a.status === 502).length).toBeGreaterThan(0);
    await expectConsistent(w);
    await new Promise((resolve) => setTimeout(resolve, 500)); // past every in-flight window
    const modify = vi.spyOn(authorizer, 'modify');
    await refund(w, token, aed(1)); // settles the abandoned ones from lookup first
    const settled = await expectConsistent(w);
    expect(Object.values(settled.operations ?? {}).filter((o) => o.state === 'PENDING')).toEqual([]);
    expect(modify).toHaveBeenCalledTimes(1); // only the new refund went to the acquirer
  });
});

describe('RT-L: scope and input', () => {
  it("held: another tenant's payment, a paymentRef from another order, another outlet: 404 and nothing changes", async () => {
    const a = await authorizedWorld({ amount: 1000 });
    const b = await authorizedWorld({ amount: 1000 });
    const before = await stored(a);
    const stranger = await tenantToken({ tenantRef: b.tenantRef, permissions: ['CREATE_CAPTURE', 'CREATE_REFUND', 'CREATE_REVERSAL'] });
    expect((await capture(a, stranger, aed(1))).status).toBe(404);
    expect((await reverse(a, stranger)).status).toBe(404);
    // B's own order and outlet, A's paymentRef; A's order with B's paymentRef.
    expect((await capture({ ...b, paymentRef: a.paymentRef }, stranger, aed(1))).status).toBe(404);
    expect((await capture({ ...a, paymentRef: b.paymentRef }, token, aed(1))).status).toBe(404);
    expect((await capture({ ...a, outletId: a.otherOutletId }, token, aed(1))).status).toBe(404);
    expect((await capture({ ...a, outletId: b.outletId }, stranger, aed(1))).status).toBe(404);
    expect(await stored(a)).toEqual(before);
    expect((await stored(b)).capturedAmount).toBe(0);
  });

  it('held: other currencies, 0, negative, floats, strings, huge, null → 400/422 and nothing changes', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const before = await stored(w);
    const cases: [unknown, number][] = [
      [{ amount: { currencyCode: 'USD', value: 10 } }, 422],
      [{ amount: { currencyCode: 'aed', value: 10 } }, 400],
      [{ amount: { currencyCode: 'AED', value: 0 } }, 400],
      [{ amount: { currencyCode: 'AED', value: -1 } }, 400],
      [{ amount: { currencyCode: 'AED', value: 10.5 } }, 400],
      [{ amount: { currencyCode: 'AED', value: '10' } }, 400],
      [{ amount: { currencyCode: 'AED', value: 1e12 } }, 422],
      [{ amount: { currencyCode: 'AED', value: 1e21 } }, 400],
      [{ amount: { currencyCode: 'AED', value: 2 ** 53 + 1 } }, 400],
      [{ amount: { currencyCode: 'AED' } }, 400],
      [{ amount: null }, 400],
      [{ amount: { currencyCode: 'AED', value: 10 }, capture: true }, 400],
      [[aed(10)], 400],
      ['{"amount":{"currencyCode":"AED","value":10},"amount":{"currencyCode":"AED","value":5000}}', 422],
    ];
    for (const [body, status] of cases) {
      const answer = await capture(w, token, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
    }
    expect(await stored(w)).toEqual(before);
    expect((await reverse(w, token)).status).toBe(200); // untouched: still reversible in full
  });
});

describe('RT-L: Idempotency-Key', () => {
  it('held: one key on two payments: 422 on the second, never the first payment’s answer; each gets its own reference', async () => {
    const a = await authorizedWorld({ amount: 1000 });
    const b = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const first = await capture(a, token, aed(100), keyed(key));
    expect(first.status).toBe(201);
    const second = await capture(b, token, aed(100), keyed(key));
    expect([second.status, second.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await stored(b)).capturedAmount).toBe(0);
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
    const pendingOnA = Object.entries((await stored(a)).operations ?? {})
      .filter(([, o]) => o.state === 'PENDING')
      .map(([ref]) => ref);
    expect(pendingOnA).toHaveLength(1);
    expect(onB.body.captures.map((x: { captureRef: string }) => x.captureRef)).not.toContain(pendingOnA[0]);
  });

  it('held: a capture key replayed after 24 h runs again but names the same operation: captured once, sent once', async () => {
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

  it('RT-L1: the same key with another amount after its first use was not stored (502) is 422, not the first amount’s capture', async () => {
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

  it('RT-L1: … and after 24 h, another amount under an old key is 422, never a 201 for a capture that did not happen', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const key = randomUUID();
    const start = Date.now();
    expect((await capture(w, token, aed(250), keyed(key))).status).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'], now: start + (IDEMPOTENCY_WINDOW_SECONDS + 5) * 1000 });
    const later = await platformToken();
    const other = await capture(w, later, aed(400), keyed(key));
    expect([other.status, other.body.code], other.raw).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await stored(w)).capturedAmount).toBe(250);
    // Omitted amount ("the rest") names no amount: the retry of such a request still gets its operation.
    const rest = randomUUID();
    const all = await capture(w, later, undefined, keyed(rest));
    expect(all.body.capturedAmount.value).toBe(1000);
    vi.setSystemTime(start + 2 * (IDEMPOTENCY_WINDOW_SECONDS + 5) * 1000);
    const again = await capture(w, await platformToken(), undefined, keyed(rest));
    expect([again.status, again.body.capturedAmount?.value]).toEqual([201, 1000]);
  });
});

describe('RT-L: the outbox on the payment item', () => {
  it('RT-L2: while the delivery worker is down, many operations never grow the item past 400 KB: refused before the acquirer (503), never a 500 after it', async () => {
    const w = await authorizedWorld({ amount: 100_000 });
    const modify = vi.spyOn(authorizer, 'modify');
    let refused: Awaited<ReturnType<typeof capture>> | undefined;
    for (let i = 0; i < 90 && !refused; i++) {
      const answer = await capture(w, token, aed(10));
      if (answer.status !== 201) refused = answer;
    }
    expect(refused, 'every capture went through: the outbox gate is gone').toBeDefined();
    expect([refused!.status, refused!.body.code], refused!.raw).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    expect(Number(refused!.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    const p = await expectConsistent(w);
    expect(Object.values(p.operations ?? {}).filter((o) => o.state !== 'SUCCEEDED')).toEqual([]); // nothing half-done
    expect(modify).toHaveBeenCalledTimes(Object.keys(p.operations ?? {}).length);
    // Once the worker drained the outbox, the payment takes operations again.
    const events = new EventRepository(documentClient, serviceConfig.ORDERS_TABLE);
    await drainOutbox(
      outboxWorker({
        store: events,
        endpoints: { endpointFor: async () => undefined },
        sender: { send: async () => ({ ok: false, durationMs: 0 }) },
        settings: { retryDelaysMs: [], claimMs: 1_000 },
      }),
      { pk: `ORDER#${w.orderRef}`, sk: `PAYMENT#${w.paymentRef}` },
    );
    expect((await capture(w, token, aed(10))).status).toBe(201);
  });
});
