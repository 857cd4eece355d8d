/**
 * A capture (4.11) or reversal (4.12) refused for its scope (SPEC §1: another tenant, order or
 * outlet is 404, as if absent) or for its body (400/422) leaves the payment exactly as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { aed, authorizedWorld, capture, reverse, storedPayment } from '../support/lifecycle.js';
import { platformToken, tenantToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});

describe('a capture out of scope or with a bad amount is refused and changes nothing', () => {
  it("another tenant's payment, a paymentRef from another order, another outlet: 404 and nothing changes", async () => {
    const a = await authorizedWorld({ amount: 1000 });
    const b = await authorizedWorld({ amount: 1000 });
    const before = await storedPayment(a);
    const stranger = await tenantToken({ tenantRef: b.tenantRef, permissions: ['CREATE_CAPTURE', 'CREATE_REFUND', 'CREATE_REVERSAL'] });
    expect((await capture(a, stranger, aed(1))).status).toBe(404);
    expect((await reverse(a, stranger)).status).toBe(404);
    // B's own order and outlet, A's paymentRef; A's order with B's paymentRef.
    expect((await capture({ ...b, paymentRef: a.paymentRef }, stranger, aed(1))).status).toBe(404);
    expect((await capture({ ...a, paymentRef: b.paymentRef }, token, aed(1))).status).toBe(404);
    expect((await capture({ ...a, outletId: a.otherOutletId }, token, aed(1))).status).toBe(404);
    expect((await capture({ ...a, outletId: b.outletId }, stranger, aed(1))).status).toBe(404);
    expect(await storedPayment(a)).toEqual(before);
    expect((await storedPayment(b)).capturedAmount).toBe(0);
  });

  it('other currencies, 0, negative, floats, strings, huge, null → 400/422 and nothing changes', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const before = await storedPayment(w);
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
    expect(await storedPayment(w)).toEqual(before);
    expect((await reverse(w, token)).status).toBe(200); // untouched: still reversible in full
  });
});
