import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createPayment } from '../../functions/create-payment/handler.js';
import { handler as createSession } from '../../functions/create-hosted-session/handler.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { paymentLinkRepository } from '../../lib/composition/payment-links.js';
import { paymentRepository } from '../../lib/composition/payments.js';
import { authorizer } from '../support/sandbox-acquirer.js';
import { checkoutResponse } from '../support/checkout.js';
import { invoke } from '../support/invoke.js';
import { cancelPaymentLink, newLinkRef, openPaymentLink, readPaymentLink, sessionOf } from '../support/payment-links.js';
import { answerChallenge, completeThreeDs, pay } from '../support/payments.js';
import { seedMerchant, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * A cancelled payment link never takes money afterwards (SPEC 4.14, docs/integrating/payment-links.md):
 * not through a hosted session minted before the cancel, not through a retry or a 3DS completion,
 * and not when the cancel and a payment cross; a cancel while a payment is in flight is 409.
 */
let token: string;
let m: SeededMerchant;

beforeAll(async () => {
  token = await platformToken();
  m = await seedMerchant();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A link opened by a shopper: its order, its first payment and the session the page holds. */
async function openedLink() {
  const linkRef = await newLinkRef(m.outletId, token);
  const session = await sessionOf(await openPaymentLink(linkRef));
  const order = await invoke(getOrder, {
    path: `/transactions/outlets/${m.outletId}/orders/${session.orderRef}`,
    pathParameters: { outletId: m.outletId, orderRef: session.orderRef },
    token: session.token,
  });
  const ids = { outletId: m.outletId, orderRef: session.orderRef, paymentRef: order.body.payments[0].paymentRef as string };
  return { linkRef, session, ids };
}

/** As a payment's lease leaves it: PROCESSING while the acquirer is asked. */
async function markProcessing(ids: { orderRef: string; paymentRef: string }) {
  await documentClient.send(
    new UpdateCommand({
      TableName: serviceConfig.ORDERS_TABLE,
      Key: { pk: `ORDER#${ids.orderRef}`, sk: `PAYMENT#${ids.paymentRef}` },
      UpdateExpression: 'SET #state = :processing, leaseUntil = :until',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':processing': 'PROCESSING', ':until': Date.now() + 30_000 },
    }),
  );
}

const paymentState = async (ids: { orderRef: string; paymentRef: string }) => (await paymentRepository.get(ids.orderRef, ids.paymentRef))?.state;

describe('a cancelled link takes no money', () => {
  it('a session minted before the cancel cannot pay: 409, the payment stays STARTED, the link CANCELLED', async () => {
    const { linkRef, session, ids } = await openedLink();
    expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
    const paid = await pay(ids, session.token, await checkoutResponse());
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(await paymentState(ids)).toBe('STARTED');
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('CANCELLED');
  });

  it('after a retryable decline, the cancelled link’s order gets no new payment (409)', async () => {
    const { linkRef, session, ids } = await openedLink();
    const declined = await pay(ids, session.token, await checkoutResponse({ card: 'visa-expired' }));
    expect(declined.body).toMatchObject({ state: 'FAILED', retryable: true });
    expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
    const retried = await invoke(createPayment, {
      method: 'POST',
      path: `/transactions/outlets/${m.outletId}/orders/${ids.orderRef}/payments`,
      pathParameters: { outletId: m.outletId, orderRef: ids.orderRef },
      token: session.token,
    });
    expect(retried.status).toBe(409);
    expect(retried.body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('a cancel that lands after the payment’s checks but before its lease: the payment is refused and the lease given back', async () => {
    const { linkRef, session, ids } = await openedLink();
    const acquire = paymentRepository.acquireLease.bind(paymentRepository);
    vi.spyOn(paymentRepository, 'acquireLease').mockImplementationOnce(async (payment, lease) => {
      expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
      return acquire(payment, lease);
    });
    const paid = await pay(ids, session.token, await checkoutResponse());
    expect(paid.status).toBe(409);
    expect(await paymentState(ids)).toBe('STARTED');
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('CANCELLED');
  });

  it('also when the lease reads as a takeover (its write landed, the answer was lost, the SDK retried): refused, the lease given back', async () => {
    const { linkRef, session, ids } = await openedLink();
    const acquire = paymentRepository.acquireLease.bind(paymentRepository);
    vi.spyOn(paymentRepository, 'acquireLease').mockImplementationOnce(async (payment, lease) => {
      expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
      await acquire(payment, lease);
      return { takeover: true };
    });
    const paid = await pay(ids, session.token, await checkoutResponse());
    expect(paid.status).toBe(409);
    expect(await paymentState(ids)).toBe('STARTED');
  });

  it('a takeover on a link cancelled while the earlier attempt was at the acquirer records what the acquirer did, never gives it back as STARTED', async () => {
    // The cancel's re-check (or its undo) failed after its write: the link stays cancelled while
    // the first attempt's authorization landed. The takeover must ask the acquirer first.
    const { linkRef, session, ids } = await openedLink();
    const acquire = paymentRepository.acquireLease.bind(paymentRepository);
    vi.spyOn(paymentRepository, 'acquireLease').mockImplementationOnce(async (payment, lease) => {
      expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
      await acquire(payment, lease);
      return { takeover: true };
    });
    vi.spyOn(authorizer, 'recover').mockResolvedValueOnce({
      kind: 'known',
      outcome: { kind: 'approved', processorReference: ids.paymentRef, authorizationCode: 'A1B2C3', resultCode: '00' },
    });
    const authorize = vi.spyOn(authorizer, 'authorize');
    const paid = await pay(ids, session.token, await checkoutResponse());
    expect(authorize).not.toHaveBeenCalled();
    expect(paid.status).toBe(200);
    expect(await paymentState(ids)).toBe('AUTHORISED');
  });
});

describe('opens, payments and a cancel at the same moment', () => {
  it('an open that read the link just before the cancel landed shows the cancelled page (410), not a checkout', async () => {
    const { linkRef } = await openedLink();
    const stale = await paymentLinkRepository.get(linkRef);
    expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
    vi.spyOn(paymentLinkRepository, 'get').mockResolvedValueOnce(stale);
    const page = await openPaymentLink(linkRef);
    expect(page.status).toBe(410);
    expect(page.raw).toContain('no longer available');
  });

  it('the merchant gets no hosted session (4.9) for a cancelled link’s order: 409', async () => {
    const { linkRef, ids } = await openedLink();
    expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
    const minted = await invoke(createSession, {
      method: 'POST',
      path: `/transactions/outlets/${m.outletId}/orders/${ids.orderRef}/hosted-sessions`,
      pathParameters: { outletId: m.outletId, orderRef: ids.orderRef },
      token,
    });
    expect(minted.status).toBe(409);
    expect(minted.body.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('once the cancel answered 200, no session an open handed out, before or alongside it, pays, and the link stays CANCELLED', async () => {
    const linkRef = await newLinkRef(m.outletId, token);
    const first = await sessionOf(await openPaymentLink(linkRef)); // a shopper already on the page
    const [cancelled, ...opens] = await Promise.all([
      cancelPaymentLink(m.outletId, linkRef, token),
      ...Array.from({ length: 6 }, () => openPaymentLink(linkRef)),
    ]);
    expect(cancelled.status).toBe(200);
    const sessions = [first, ...(await Promise.all(opens.filter((open) => open.status === 303).map(sessionOf)))];
    for (const session of sessions) {
      const order = await invoke(getOrder, {
        path: `/transactions/outlets/${m.outletId}/orders/${session.orderRef}`,
        pathParameters: { outletId: m.outletId, orderRef: session.orderRef },
        token: session.token,
      });
      const paid = await pay(
        { outletId: m.outletId, orderRef: session.orderRef, paymentRef: order.body.payments[0].paymentRef },
        session.token,
        await checkoutResponse(),
      );
      expect(paid.status).toBe(409);
    }
    expect(opens.every((open) => open.status === 303 || open.status === 410)).toBe(true);
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('CANCELLED');
  });
});

describe('no cancel while a payment is under way', () => {
  it('a payment waiting for 3DS does not hold the cancel: 200, and completing 3DS afterwards is refused (409), nothing authorised', async () => {
    const { linkRef, session, ids } = await openedLink();
    const waiting = await pay(ids, session.token, await checkoutResponse({ card: 'visa-3ds' }));
    expect(waiting.body.state).toBe('AWAIT_3DS');
    expect((await cancelPaymentLink(m.outletId, linkRef, token)).status).toBe(200);
    const { cres } = await answerChallenge(waiting.body.threeDs, '1234');
    const done = await completeThreeDs(ids, session.token, cres!);
    expect(done.status).toBe(409);
    expect(done.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(await paymentState(ids)).toBe('AWAIT_3DS');
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('CANCELLED');
  });

  it('while a payment is in flight (its lease taken): 409, the link stays ACTIVE', async () => {
    const { linkRef, ids } = await openedLink();
    await markProcessing(ids);
    const cancelled = await cancelPaymentLink(m.outletId, linkRef, token);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.code).toBe('PAYMENT_STATE_CONFLICT');
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('ACTIVE');
  });

  it('a lease taken after the cancel’s check but before its write: the cancel is undone (409), the link stays ACTIVE', async () => {
    const { linkRef, ids } = await openedLink();
    const cancel = paymentLinkRepository.cancel.bind(paymentLinkRepository);
    vi.spyOn(paymentLinkRepository, 'cancel').mockImplementationOnce(async (ref, at, cancelId) => {
      await markProcessing(ids);
      return cancel(ref, at, cancelId);
    });
    const cancelled = await cancelPaymentLink(m.outletId, linkRef, token);
    expect(cancelled.status).toBe(409);
    expect((await readPaymentLink(m.outletId, linkRef, token)).body.state).toBe('ACTIVE');
  });
});
