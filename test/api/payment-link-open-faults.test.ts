import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderRepository } from '../../lib/composition/core.js';
import { paymentLinkRepository } from '../../lib/composition/payment-links.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { newLinkRef, openPaymentLink, readPaymentLink, sessionOf } from '../support/payment-links.js';
import { seedMerchant, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * DynamoDB fails in the middle of a link's first open, after its order was written: the shopper
 * gets the 503 page (never a checkout for an order the link does not keep), and the next open
 * lands on the one order the link keeps.
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

describe('a fault while the first open attaches its order', () => {
  it('lost before the write: a 503 page with Retry-After; the next open makes and keeps one order', async () => {
    const linkRef = await newLinkRef(m.outletId, token);
    const created = vi.spyOn(orderRepository, 'create');
    vi.spyOn(paymentLinkRepository, 'attachOrder').mockRejectedValueOnce(new DependencyUnavailableError());
    const down = await openPaymentLink(linkRef);
    expect(down.status).toBe(503);
    expect(down.headers['Retry-After']).toBeDefined();
    expect(down.headers.Location).toBeUndefined();
    expect(down.raw).toContain('temporarily unavailable');
    const up = await openPaymentLink(linkRef);
    expect(up.status).toBe(303);
    const { orderRef } = await sessionOf(up);
    expect(created).toHaveBeenCalledTimes(2); // the first order is never handed out
    expect(orderRef).toBe(created.mock.calls[1]![0].orderRef);
    expect((await readPaymentLink(m.outletId, linkRef, token)).body).toMatchObject({ state: 'ACTIVE', orderRef });
  });

  it('written, but the answer lost: the next open uses the order the write attached', async () => {
    const linkRef = await newLinkRef(m.outletId, token);
    const attach = paymentLinkRepository.attachOrder.bind(paymentLinkRepository);
    vi.spyOn(paymentLinkRepository, 'attachOrder').mockImplementationOnce(async (ref, orderRef) => {
      await attach(ref, orderRef);
      throw new DependencyUnavailableError();
    });
    expect((await openPaymentLink(linkRef)).status).toBe(503);
    const attached = (await readPaymentLink(m.outletId, linkRef, token)).body.orderRef as string;
    const up = await openPaymentLink(linkRef);
    expect((await sessionOf(up)).orderRef).toBe(attached);
  });
});
