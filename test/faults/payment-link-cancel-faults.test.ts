/**
 * A payment-link cancel and a payment crossing while DynamoDB stalls (SPEC 4.14; README
 * "A cancelled link takes no money"): each answer is true of what the link ends as — the
 * loser's 409 names what happened — and a cancel whose own write landed answers as cancelled.
 * The fault proxy holds single DynamoDB calls to order each race step by step, or loses answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { proxiedStack } from '../support/fault-stack.js';
import { dynamoOperation, type Matcher } from '../support/fault-proxy.js';

// Proxies in front of the engines before any client is built: lib/ is imported dynamically below.
const { dynamo } = await proxiedStack();
const { cancelPaymentLink, newLinkRef, openPaymentLink, readPaymentLink, sessionOf } = await import('../support/payment-links.js');
const { pay } = await import('../support/payments.js');
const { checkoutResponse } = await import('../support/checkout.js');
const { seedMerchant } = await import('../support/seed.js');
const { platformToken } = await import('../support/tokens.js');
const { invoke } = await import('../support/invoke.js');
const { handler: getOrder } = await import('../../functions/get-order/handler.js');
const { paymentLinkRepository } = await import('../../lib/composition/payment-links.js');
const { paymentRepository } = await import('../../lib/composition/payments.js');
const { authorizer } = await import('../support/sandbox-acquirer.js');

let token: string;
let outletId: string;
beforeAll(async () => {
  token = await platformToken();
  outletId = (await seedMerchant()).outletId;
});

const CANCELLED = 'The payment link of this order was cancelled.';
const UNDER_WAY = 'A payment of this link is under way; it cannot be cancelled now.';

const updateWith =
  (text: string): Matcher =>
  (r) =>
    dynamoOperation('UpdateItem')(r) && r.body.includes(text);
const cancelWrite = updateWith('SET cancelledAt = :at');
const linkRead =
  (linkRef: string): Matcher =>
  (r) =>
    dynamoOperation('GetItem')(r) && r.body.includes(`LINK#${linkRef}`);
const orderRead =
  (orderRef: string): Matcher =>
  (r) =>
    dynamoOperation('Query')(r) && r.body.includes(`ORDER#${orderRef}`);
const leaseRelease = updateWith('#state = :processing AND leaseId = :leaseId');
const finalMark = updateWith('cancelFinalAt');

/** A link a shopper opened: its order, first payment and the page's session. */
async function openedLink() {
  const linkRef = await newLinkRef(outletId, token);
  const session = await sessionOf(await openPaymentLink(linkRef));
  const order = await invoke(getOrder, {
    path: `/transactions/outlets/${outletId}/orders/${session.orderRef}`,
    pathParameters: { outletId, orderRef: session.orderRef },
    token: session.token,
  });
  const ids = { outletId, orderRef: session.orderRef, paymentRef: order.body.payments[0].paymentRef as string };
  return { linkRef, session, ids };
}

const linkState = async (linkRef: string) => (await readPaymentLink(outletId, linkRef, token)).body.state as string;
const acquirerCalls = async (paymentRef: string) => (await authorizer.operation(paymentRef))?.calls ?? 0;

/**
 * The crossing of finding 7: the cancel checked (no payment yet), the payment took its lease,
 * the cancel's write landed, the payment read the link (cancelled), and the cancel's re-check
 * read the payment before the payment gave its lease back (PROCESSING). Returns the holds still
 * closed: the payment's next write after reading the link, and the cancel's re-check.
 */
async function crossCancelAndPayment(paymentsNextWrite: Matcher) {
  const { linkRef, session, ids } = await openedLink();
  const sdkResult = await checkoutResponse();
  const write = dynamo.hold(cancelWrite);
  const cancelling = cancelPaymentLink(outletId, linkRef, token);
  await write.arrived; // the cancel found the payment STARTED and is writing
  const paymentReadsLink = dynamo.hold(linkRead(linkRef));
  const paying = pay(ids, session.token, sdkResult);
  await paymentReadsLink.arrived; // the payment holds its lease
  const recheck = dynamo.hold(orderRead(ids.orderRef));
  write.release();
  await recheck.arrived; // the cancel landed and re-checks the payments
  const next = dynamo.hold(paymentsNextWrite);
  paymentReadsLink.release();
  await next.arrived; // the payment saw the link cancelled
  return { linkRef, ids, cancelling, paying, recheck, next };
}

describe('a cancel and a payment crossing under a stalled DynamoDB: each answer is true of the final state', () => {
  it('the payment saw the cancel first: it makes the cancel final and answers 409 "cancelled"; the cancel stands (200); the link ends CANCELLED, nothing authorised', async () => {
    const race = await crossCancelAndPayment(leaseRelease);
    race.recheck.release(); // the cancel now reads the payment still PROCESSING
    const cancelled = await race.cancelling;
    race.next.release();
    const paid = await race.paying;
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.state).toBe('CANCELLED');
    expect([paid.status, paid.body.code, paid.body.detail]).toEqual([409, 'PAYMENT_STATE_CONFLICT', CANCELLED]);
    expect(await linkState(race.linkRef)).toBe('CANCELLED');
    expect((await paymentRepository.get(race.ids.orderRef, race.ids.paymentRef))?.state).toBe('STARTED');
    expect(await acquirerCalls(race.ids.paymentRef)).toBe(0);
  });

  it('the cancel undid itself before the payment’s final mark landed: the cancel answers 409 "under way", the payment goes on and pays; the link ends PAID', async () => {
    const race = await crossCancelAndPayment(finalMark);
    race.recheck.release(); // the cancel reads PROCESSING and undoes itself
    const cancelled = await race.cancelling;
    race.next.release(); // the final mark finds nothing cancelled any more
    const paid = await race.paying;
    expect([cancelled.status, cancelled.body.detail]).toEqual([409, UNDER_WAY]);
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.state).toBe('AUTHORISED');
    expect(await linkState(race.linkRef)).toBe('PAID');
    expect(await acquirerCalls(race.ids.paymentRef)).toBe(1);
  });

  it('cancels and payments started together over a slow DynamoDB: whoever wins, both answers agree with the link', async () => {
    dynamo.delay(15);
    const races = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const { linkRef, session, ids } = await openedLink();
        const sdkResult = await checkoutResponse();
        await new Promise((resolve) => setTimeout(resolve, i * 7));
        const [cancelled, paid] = await Promise.all([cancelPaymentLink(outletId, linkRef, token), pay(ids, session.token, sdkResult)]);
        return { linkRef, ids, cancelled, paid };
      }),
    );
    dynamo.delay(0);
    for (const race of races) {
      const state = await linkState(race.linkRef);
      const story = JSON.stringify({
        state,
        cancel: [race.cancelled.status, race.cancelled.body.detail],
        pay: [race.paid.status, race.paid.body.detail ?? race.paid.body.state],
      });
      if (race.cancelled.status === 200) {
        expect(state, story).toBe('CANCELLED');
        expect([race.paid.status, race.paid.body.detail], story).toEqual([409, CANCELLED]);
        expect(await acquirerCalls(race.ids.paymentRef)).toBe(0);
      } else {
        expect(race.cancelled.status, story).toBe(409);
        expect(state, story).toBe('PAID');
        expect([race.paid.status, race.paid.body.state], story).toEqual([200, 'AUTHORISED']);
        expect(await acquirerCalls(race.ids.paymentRef)).toBe(1);
      }
    }
  });
});

describe('a cancel whose own write landed answers as cancelled', () => {
  it('its answer lost, the SDK’s retry met the landed write: 200 CANCELLED, not "only an active link"', async () => {
    const linkRef = await newLinkRef(outletId, token);
    dynamo.drop(cancelWrite, 'response', 1);
    const before = dynamo.count(cancelWrite);
    const cancelled = await cancelPaymentLink(outletId, linkRef, token);
    expect(dynamo.count(cancelWrite) - before).toBe(2);
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.state).toBe('CANCELLED');
    expect(await linkState(linkRef)).toBe('CANCELLED');
  });

  it('DynamoDB stalled past the SDK’s request timeout and processed the write before the retry: 200 CANCELLED', async () => {
    const linkRef = await newLinkRef(outletId, token);
    const first = dynamo.hold(cancelWrite);
    const cancelling = cancelPaymentLink(outletId, linkRef, token);
    await first.arrived;
    const retry = dynamo.hold(cancelWrite);
    await retry.arrived; // the SDK gave up on the first attempt (2 s) and sent it again
    first.release();
    await until(async () => (await paymentLinkRepository.get(linkRef))?.cancelledAt !== undefined);
    retry.release();
    const cancelled = await cancelling;
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.state).toBe('CANCELLED');
  });

  it('the request answered 503 and the write landed after it: the retry with the same Idempotency-Key answers 200 CANCELLED', async () => {
    const linkRef = await newLinkRef(outletId, token);
    const headers = { 'idempotency-key': `cancel-${Math.random()}` };
    dynamo.freeze(cancelWrite);
    const first = await cancelPaymentLink(outletId, linkRef, token, headers);
    expect([first.status, first.body.code]).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    dynamo.thaw();
    await until(async () => (await paymentLinkRepository.get(linkRef))?.cancelledAt !== undefined);
    let again = await cancelPaymentLink(outletId, linkRef, token, headers);
    for (let i = 0; again.status === 409 && again.body.code === 'IDEMPOTENCY_KEY_IN_USE' && i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      again = await cancelPaymentLink(outletId, linkRef, token, headers);
    }
    expect(again.status, again.raw).toBe(200);
    expect(again.body.state).toBe('CANCELLED');
    const other = await cancelPaymentLink(outletId, linkRef, token); // another request: the link is no longer active
    expect([other.status, other.body.detail]).toEqual([409, 'The payment link is already cancelled.']);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
