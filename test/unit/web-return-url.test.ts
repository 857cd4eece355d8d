import { describe, expect, it } from 'vitest';
import type { Order, Payment } from '../../web/src/api.js';
import { readBootstrap, type SessionContext } from '../../web/src/bootstrap.js';
import { endsVisit, flowReducer, isRetryable } from '../../web/src/flow/reducer.js';
import { returnTarget } from '../../web/src/flow/return-url.js';
import { initialState, type Loaded } from '../../web/src/flow/state.js';
import { TEXT } from '../../web/src/messages.js';

/** Hosted payment page (SPEC 4.8) in the page: the way back to the shop, and retry after a decline. */
const base: SessionContext = { orderRef: 'ord-1', outletId: 'out-1', merchantRef: 'm-1', expiresAt: '' };

describe('returnTarget', () => {
  it('adds orderRef to the return URL, keeping the shop’s own query byte for byte and its fragment', () => {
    const context = { ...base, returnUrl: 'https://shop.example.com/done?cart=42&q=a%2Cb+c#top' };
    expect(returnTarget(context, 'back', 'ord-1')).toBe('https://shop.example.com/done?cart=42&q=a%2Cb+c&orderRef=ord-1#top');
    expect(returnTarget({ ...base, returnUrl: 'http://127.0.0.1:8080/' }, 'back', 'ord 1&x')).toBe('http://127.0.0.1:8080/?orderRef=ord%201%26x');
  });

  it('replaces an orderRef already in the URL instead of sending two', () => {
    expect(returnTarget({ ...base, returnUrl: 'https://shop.example.com/r?orderRef=old&a=1&orderRef' }, 'back', 'ord-1')).toBe(
      'https://shop.example.com/r?a=1&orderRef=ord-1',
    );
  });

  it('Cancel goes to cancelUrl, else to returnUrl; Back to returnUrl, else to cancelUrl', () => {
    const both = { ...base, returnUrl: 'https://shop.example.com/return', cancelUrl: 'https://shop.example.com/cancel' };
    expect(returnTarget(both, 'cancel', 'o')).toBe('https://shop.example.com/cancel?orderRef=o');
    expect(returnTarget(both, 'back', 'o')).toBe('https://shop.example.com/return?orderRef=o');
    expect(returnTarget({ ...base, returnUrl: 'https://shop.example.com/return' }, 'cancel', 'o')).toBe('https://shop.example.com/return?orderRef=o');
    expect(returnTarget({ ...base, cancelUrl: 'https://shop.example.com/cancel' }, 'back', 'o')).toBe('https://shop.example.com/cancel?orderRef=o');
  });

  it('no return URL, or one that is not a plain http(s) address: no way back offered', () => {
    expect(returnTarget(base, 'back', 'o')).toBeUndefined();
    expect(returnTarget(undefined, 'cancel', 'o')).toBeUndefined();
    for (const returnUrl of ['javascript:alert(1)', 'data:text/html,x', 'https://user:pw@shop.example.com/', 'not a url', '//shop.example.com/x']) {
      expect(returnTarget({ ...base, returnUrl }, 'back', 'o'), returnUrl).toBeUndefined();
    }
  });
});

describe('bootstrap: return URLs and shop name', () => {
  const boot = (rendered: Record<string, unknown>) => {
    const doc = { getElementById: () => ({ textContent: JSON.stringify(rendered) }) } as unknown as Document;
    const win = {
      location: { href: `https://pay.example/checkout?session=hs_${'a'.repeat(43)}` },
      history: { state: null, replaceState: () => undefined },
    } as unknown as Window;
    return readBootstrap(doc, win);
  };

  it('reads returnUrl, cancelUrl and shopName', () => {
    const result = boot({ ...base, returnUrl: 'https://shop.example.com/r', cancelUrl: 'https://shop.example.com/c', shopName: ' Demo Shop ' });
    expect(result).toMatchObject({
      ok: true,
      context: { returnUrl: 'https://shop.example.com/r', cancelUrl: 'https://shop.example.com/c', shopName: 'Demo Shop' },
    });
  });

  it('drops a return URL that is not http(s) or carries credentials, and an empty shop name', () => {
    const result = boot({ ...base, returnUrl: 'javascript:alert(1)', cancelUrl: 'https://a:b@shop.example.com/', shopName: '  ' });
    expect(result.ok && result.context).toEqual({ ...base });
  });
});

const at = '2026-01-01T00:00:00.000Z';
/** A FAILED payment; `retryable` is the server's word on it (payment level, beside `failure`). */
const failed = ({ retryable, ...failure }: Record<string, unknown>): Payment =>
  ({
    paymentRef: 'p1',
    orderRef: 'ord-1',
    outletId: 'out-1',
    state: 'FAILED',
    amount: { currencyCode: 'AED', value: 100 },
    failure,
    ...(retryable === undefined ? {} : { retryable }),
    createdAt: at,
    updatedAt: at,
  }) as Payment;

describe('decline retry and the end of a visit', () => {
  it('only a decline the server marks retryable (true, not truthy) offers another card', () => {
    expect(isRetryable(failed({ code: 'INSUFFICIENT_FUNDS', reason: 'x', retryable: true }))).toBe(true);
    expect(isRetryable(failed({ code: 'CARD_EXPIRED', reason: 'x', retryable: false }))).toBe(false);
    expect(isRetryable(failed({ code: 'DO_NOT_HONOUR', reason: 'x' }))).toBe(false);
    expect(isRetryable(failed({ code: 'X', reason: 'x', retryable: 'yes' }))).toBe(false);
    expect(isRetryable({ ...failed({ code: 'X', reason: 'x', retryable: true }), state: 'AUTHORISED' })).toBe(false);
  });

  it('a success or a final decline ends the visit; a retryable decline does not (the shopper may pay again)', () => {
    const payment = failed({ code: 'X', reason: 'x' });
    expect(endsVisit({ kind: 'paid', payment: { ...payment, state: 'AUTHORISED' } })).toBe(true);
    expect(endsVisit({ kind: 'declined', payment })).toBe(true);
    expect(endsVisit({ kind: 'declined', payment: failed({ code: 'X', reason: 'x', retryable: true }) })).toBe(false);
    expect(endsVisit({ kind: 'cards' })).toBe(false);
  });

  it('paymentRetried switches the page to the new payment, stops any auto-return and says why the cards are back', () => {
    const order: Order = {
      orderRef: 'ord-1',
      outletId: 'out-1',
      action: 'AUTH',
      amount: { currencyCode: 'AED', value: 100 },
      state: 'STARTED',
      paymentMethods: ['CLICK_TO_PAY'],
      payments: [],
      createdAt: at,
    };
    const loaded: Loaded = { context: base, config: {} as Loaded['config'], keys: { encryptionKeyId: 'k', keys: [] }, order, paymentRef: 'p1' };
    const state = flowReducer({ ...initialState, loaded, autoReturn: true }, { type: 'paymentRetried', order: { ...order, payments: [] }, paymentRef: 'p2' });
    expect(state.loaded?.paymentRef).toBe('p2');
    expect(state.autoReturn).toBe(false);
    expect(state.status).toBe(TEXT.chooseAnotherCard.body);
    // Nothing loaded (cannot happen after a decline): no change rather than a half state.
    const empty = { ...initialState };
    expect(flowReducer(empty, { type: 'paymentRetried', order: { ...order, payments: [] }, paymentRef: 'p2' })).toBe(empty);
  });

  it('a failed retry shows the decline again with the reason; leaving and auto-return are flags', () => {
    const payment = failed({ code: 'X', reason: 'x', retryable: true });
    expect(flowReducer(initialState, { type: 'retryFailed', payment, alert: TEXT.retryFailed })).toMatchObject({
      view: { kind: 'declined', payment },
      alert: TEXT.retryFailed,
    });
    expect(flowReducer(initialState, { type: 'autoReturnScheduled' }).autoReturn).toBe(true);
    expect(flowReducer(initialState, { type: 'leaving' }).leaving).toBe(true);
  });
});
