/**
 * SPEC 4.13 "Operations after a fault": a capture, refund or reversal whose reservation landed
 * after its request answered 5xx (DynamoDB froze just as the amount was reserved; the SDK's call
 * timed out, the request answered 503, the engine processed the write once it thawed) is
 * performed when the same request comes back with its Idempotency-Key — at the acquirer exactly
 * once — and never answered FAILED NOT_PERFORMED. Runs on dynalite and on DynamoDB Local
 * (TEST_DYNAMODB_ENGINE=dynamodb-local).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, type Matcher } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo } = await proxiedStack();
const { acquirerRecord, aed, authorizedWorld, capture, refund, reverse } = await import('../support/lifecycle.js');
const { platformToken } = await import('../support/tokens.js');
const { lifecycleDeps } = await import('../../lib/composition/lifecycle.js');

const settings = { ...lifecycleDeps.settings };
afterEach(() => {
  Object.assign(lifecycleDeps.settings, settings);
});

/** The conditional write that reserves an operation's amount (payment-operations-repository.ts `reserve`). */
const reservation: Matcher = (r) => dynamoOperation('UpdateItem')(r) && r.body.includes('operations.#ref = :operation');

type Ids = Awaited<ReturnType<typeof authorizedWorld>>;
type Call = (w: Ids, token: string, key: Record<string, string>) => ReturnType<typeof capture>;

const CASES: { kind: string; list: 'captures' | 'refunds' | 'reversal'; world: () => Promise<Ids>; call: Call; status: number; after: string }[] = [
  {
    kind: 'capture',
    list: 'captures',
    world: () => authorizedWorld({ amount: 1000 }),
    call: (w, t, h) => capture(w, t, aed(600), { headers: h }),
    status: 201,
    after: 'PARTIALLY_CAPTURED',
  },
  {
    kind: 'refund',
    list: 'refunds',
    world: () => authorizedWorld({ action: 'PURCHASE', amount: 1000 }),
    call: (w, t, h) => refund(w, t, aed(400), { headers: h }),
    status: 201,
    after: 'PARTIALLY_REFUNDED',
  },
  {
    kind: 'reversal',
    list: 'reversal',
    world: () => authorizedWorld({ amount: 1000 }),
    call: (w, t, h) => reverse(w, t, { headers: h }),
    status: 200,
    after: 'REVERSED',
  },
];

describe('an operation whose reservation landed after its 503 is performed by the same request coming back', () => {
  for (const c of CASES) {
    it(`${c.kind}: 503, then the retry with the same Idempotency-Key performs it, sent to the acquirer once`, async () => {
      const token = await platformToken();
      const w = await c.world();
      const headers = { 'idempotency-key': `${c.kind}-after-fault-${Math.random()}` };

      dynamo.freeze(reservation);
      const first = await c.call(w, token, headers);
      expect([first.status, first.body.code], first.raw).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
      expect(dynamo.count(reservation)).toBeGreaterThanOrEqual(1);
      dynamo.thaw(); // the frozen engine processes what it had received: the reservation lands now
      const reserved = await until(async () => {
        const payment = await lifecycleDeps.payments.get(w.orderRef, w.paymentRef);
        return Object.values(payment?.operations ?? {}).find((op) => op.state === 'PENDING');
      });
      expect(reserved.kind).toBe(c.kind.toUpperCase());

      const retry = await retryHonouringRetryAfter(() => c.call(w, token, headers));
      expect(retry.status, retry.raw).toBe(c.status);
      expect(retry.body.state).toBe(c.after);
      const operations = c.list === 'reversal' ? [retry.body.reversal] : retry.body[c.list];
      expect(operations).toHaveLength(1);
      expect(operations[0].state).toBe('SUCCEEDED');
      const ref = operations[0][c.list === 'captures' ? 'captureRef' : c.list === 'refunds' ? 'refundRef' : 'reversalRef'];
      expect((await acquirerRecord(ref))?.calls).toBe(1);

      // The key now answers the stored success; nothing is sent again.
      const replay = await c.call(w, token, headers);
      expect([replay.status, replay.headers['Idempotent-Replayed']]).toEqual([c.status, 'true']);
      expect((await acquirerRecord(ref))?.calls).toBe(1);
    });
  }
});

describe('after the window, and when the claim’s own answer is lost', () => {
  it('a landed reservation nobody sent is given back (NOT_PERFORMED) by the next operation after its window; its own request coming back still performs it', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 500;
    lifecycleDeps.settings.inFlightMs = 500;
    const token = await platformToken();
    const w = await authorizedWorld({ amount: 1000 });
    const headers = { 'idempotency-key': `late-capture-${Math.random()}` };
    dynamo.freeze(reservation);
    expect((await capture(w, token, aed(600), { headers })).status).toBe(503);
    dynamo.thaw();
    await until(async () => Object.values((await lifecycleDeps.payments.get(w.orderRef, w.paymentRef))?.operations ?? {})[0]);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // past the reservation's window

    const other = await capture(w, token, aed(400)); // another capture, no key: settles the abandoned one first
    expect(other.status, other.raw).toBe(201);
    expect(other.body.captures).toMatchObject([
      { amount: { value: 600 }, state: 'FAILED', failure: { code: 'NOT_PERFORMED' } },
      { amount: { value: 400 }, state: 'SUCCEEDED' },
    ]);
    const ref = other.body.captures[0].captureRef;
    expect(await acquirerRecord(ref)).toBeUndefined();

    const retry = await retryHonouringRetryAfter(() => capture(w, token, aed(600), { headers }));
    expect(retry.status, retry.raw).toBe(201);
    expect(retry.body).toMatchObject({ state: 'CAPTURED', capturedAmount: { value: 1000 } });
    expect(retry.body.captures.find((c: { captureRef: string }) => c.captureRef === ref)).toMatchObject({ amount: { value: 600 }, state: 'SUCCEEDED' });
    expect((await acquirerRecord(ref))?.calls).toBe(1);
  });

  it('the claim to call the acquirer lands but its answer is lost: the SDK’s retry meets its own claim, and the capture is sent once', async () => {
    const token = await platformToken();
    const w = await authorizedWorld({ amount: 1000 });
    const claim: Matcher = (r) => dynamoOperation('UpdateItem')(r) && r.body.includes('operations.#ref.sentBy = :sentBy');
    dynamo.drop(claim, 'response', 1);
    const claimsBefore = dynamo.count(claim);
    const captured = await capture(w, token, aed(300), { headers: { 'idempotency-key': `claim-lost-${Math.random()}` } });
    expect(captured.status, captured.raw).toBe(201);
    expect(dynamo.count(claim) - claimsBefore).toBe(2); // the landed claim, and the SDK's retry of it
    expect(captured.body.captures).toMatchObject([{ state: 'SUCCEEDED' }]);
    expect((await acquirerRecord(captured.body.captures[0].captureRef))?.calls).toBe(1);
  });
});

/**
 * A client retrying while the earlier request's idempotency record is still held (409
 * IDEMPOTENCY_KEY_IN_USE) or DynamoDB still recovers (503), after Retry-After. Anything else —
 * a 502 "may still reach the acquirer" included: nothing was ever sent — is the answer.
 */
async function retryHonouringRetryAfter(call: () => ReturnType<typeof capture>) {
  for (let attempt = 0; ; attempt++) {
    const answer = await call();
    const waitable = answer.status === 503 || (answer.status === 409 && answer.body.code === 'IDEMPOTENCY_KEY_IN_USE');
    if (!waitable || attempt === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(answer.headers['Retry-After'] ?? 1), 3) * 1_000));
  }
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
