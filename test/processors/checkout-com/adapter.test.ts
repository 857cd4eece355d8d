import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutComProcessor } from '../../../lib/adapters/processors/checkout-com/adapter.js';
import { checkoutComAdapterConfig } from '../../../lib/adapters/processors/checkout-com/config.js';
import { ProcessorMaybeSentError, ProcessorNotReachedError, ProcessorRejectedRequestError } from '../../../lib/adapters/processors/transport/failures.js';
import { OperationNotPerformedError } from '../../../lib/core/ports/authorizer.js';
import { startCheckoutComFake, type CheckoutComFake } from '../../fakes/checkout-com/fake.js';
import { attempted, authorization, CRYPTOGRAM, everythingIn, frictionless, MASTERCARD_TOKEN, modification, signal, VISA_TOKEN } from '../support.js';

let fake: CheckoutComFake;
let cko: CheckoutComProcessor;
const configFor = (fake: CheckoutComFake, timeoutMs = 2000) =>
  checkoutComAdapterConfig.parse({ baseUrl: fake.url, secretKey: fake.secretKey, processingChannelId: fake.processingChannelId, timeoutMs });

beforeAll(async () => {
  fake = await startCheckoutComFake();
  cko = new CheckoutComProcessor(configFor(fake));
});
afterEach(() => {
  fake.clearFaults();
  fake.processingDelayMs = 0;
  expect(fake.rejections).toEqual([]);
});
afterAll(() => fake.close());

const lastPayment = () => fake.requests.filter((request) => request.method === 'POST' && request.path === '/payments').at(-1)!;
const performed = (reference: string) => fake.ledger.filter((entry) => entry.reference === reference);
const posts = (reference: string) =>
  fake.requests.filter((request) => request.method === 'POST' && (request.body as { reference?: string } | undefined)?.reference === reference);

describe('Checkout.com authorization', () => {
  it('approves with the payment id, under a Cko-Idempotency-Key derived from the paymentRef', async () => {
    const request = authorization();
    const outcome = await cko.authorize(request, signal());
    expect(outcome).toMatchObject({ kind: 'approved', resultCode: '10000', processorReference: performed(request.idempotencyKey)[0]!.id });
    expect(lastPayment().headers['cko-idempotency-key']).toBe(`authorize:${request.idempotencyKey}`);
    expect(lastPayment().headers.authorization).toBe(`Bearer ${fake.secretKey}`);
  });

  it.each([
    ['VISA', VISA_TOKEN, 'vts', '05', '05'],
    ['MASTERCARD', MASTERCARD_TOKEN, 'mdes', '02', '02'],
    ['VISA', VISA_TOKEN, 'vts', undefined, '07'],
    ['MASTERCARD', MASTERCARD_TOKEN, 'mdes', undefined, '00'],
  ])('sends a %s network token as token_type %s with the payment’s ECI (%s → %s)', async (brand, token, tokenType, eci, sent) => {
    const request = authorization({ brand, eci });
    await cko.authorize(request, signal());
    expect(lastPayment().body).toMatchObject({
      source: { type: 'network_token', token, token_type: tokenType, expiry_month: 12, expiry_year: 2030, cryptogram: CRYPTOGRAM, eci: sent },
      amount: 1000,
      currency: 'AED',
      reference: request.idempotencyKey,
      capture: false,
      processing_channel_id: fake.processingChannelId,
    });
  });

  it('captures at once for PURCHASE', async () => {
    await cko.authorize(authorization({ capture: true }), signal());
    expect(lastPayment().body).toMatchObject({ capture: true });
  });

  it.each([frictionless, attempted])('sends the 3DS result in the 3ds object (xid = dsTransID)', async (threeDs) => {
    await cko.authorize(authorization({ eci: '07', threeDs }), signal());
    const body = lastPayment().body as Record<string, any>;
    expect(body['3ds']).toEqual({ enabled: true, eci: threeDs.eci, cryptogram: threeDs.authenticationValue, xid: threeDs.dsTransactionId, version: '2.2.0' });
    expect(body.source.eci).toBe('07');
  });

  it('sends an IPv4 payer address and leaves out an IPv6 one (the published payment_ip is ipv4)', async () => {
    await cko.authorize(authorization({ payerIp: '198.51.100.4' }), signal());
    expect(lastPayment().body).toMatchObject({ payment_ip: '198.51.100.4' });
    await cko.authorize(authorization({ payerIp: '2001:db8::1' }), signal());
    expect(lastPayment().body).not.toHaveProperty('payment_ip');
  });

  it.each([
    [1051, 'INSUFFICIENT_FUNDS', 'soft', 'checkout_com:20051'],
    [1005, 'DO_NOT_HONOUR', 'soft', 'checkout_com:20005'],
    [1054, 'CARD_EXPIRED', 'hard', 'checkout_com:20054'],
    [1041, 'LOST_OR_STOLEN', 'hard', 'checkout_com:30041'],
    [1059, 'SUSPECTED_FRAUD', 'hard', 'checkout_com:20059'],
  ])('maps a decline (amount %i) to %s (%s) keeping the raw code', async (value, reason, retry, processorCode) => {
    const outcome = await cko.authorize(authorization({ amount: { currencyCode: 'AED', value } }), signal());
    expect(outcome).toMatchObject({ kind: 'declined', decline: { reason, retry, processorCode } });
  });

  it('treats a 202 as pending, not approved, and finds the settled result by reference later', async () => {
    const request = authorization({ amount: { currencyCode: 'AED', value: 1077 } });
    const outcome = await cko.authorize(request, signal());
    expect(outcome).toMatchObject({ kind: 'pending' });
    const id = (outcome as { processorReference: string }).processorReference;
    expect(await cko.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey }, signal())).toEqual({
      kind: 'known',
      outcome: { kind: 'pending', processorReference: id },
    });
    fake.settlePending(id, true);
    expect(await cko.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey }, signal())).toMatchObject({
      kind: 'known',
      outcome: { kind: 'approved', processorReference: id },
    });
  });

  it('refuses a brand without a Checkout.com token type before sending anything', async () => {
    const before = fake.requests.length;
    await expect(cko.authorize(authorization({ brand: 'AMEX' }), signal())).rejects.toBeInstanceOf(OperationNotPerformedError);
    expect(fake.requests.length).toBe(before);
  });
});

describe('Checkout.com failures and recovery by reference (never by resending)', () => {
  const quick = () => new CheckoutComProcessor(configFor(fake, 300));

  it('classifies a refused connection as not reached', async () => {
    await fake.setRefusing(true);
    try {
      await expect(cko.authorize(authorization(), signal())).rejects.toBeInstanceOf(ProcessorNotReachedError);
    } finally {
      await fake.setRefusing(false);
    }
  });

  it('after a timeout with nothing performed, the lookup finds nothing', async () => {
    const request = authorization();
    fake.setFault('hang');
    await expect(quick().authorize(request, signal())).rejects.toMatchObject({ name: 'ProcessorMaybeSentError', reason: 'timeout' });
    expect(await cko.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey }, signal())).toEqual({ kind: 'absent' });
    expect(performed(request.idempotencyKey)).toEqual([]);
  });

  it.each(['lose-answer', 'reset-after-receipt', 'server-error-after-perform'] as const)(
    'after %s the lookup by reference finds the one payment, and nothing is sent again',
    async (fault) => {
      const request = authorization();
      fake.setFault(fault);
      const error = await quick()
        .authorize(request, signal())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProcessorMaybeSentError);
      const recovered = await cko.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey }, signal());
      expect(recovered).toMatchObject({ kind: 'known', outcome: { kind: 'approved', processorReference: performed(request.idempotencyKey)[0]!.id } });
      expect(performed(request.idempotencyKey)).toHaveLength(1);
      expect(posts(request.idempotencyKey)).toHaveLength(1);
    },
  );

  it('finds a declined payment by reference with its response code', async () => {
    const request = authorization({ amount: { currencyCode: 'AED', value: 2051 } });
    fake.setFault('lose-answer');
    await expect(quick().authorize(request, signal())).rejects.toBeInstanceOf(ProcessorMaybeSentError);
    expect(await cko.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey }, signal())).toMatchObject({
      kind: 'known',
      outcome: { kind: 'declined', decline: { reason: 'INSUFFICIENT_FUNDS', processorCode: 'checkout_com:20051' } },
    });
  });

  it('classifies a 5xx as maybe sent', async () => {
    fake.setFault('server-error');
    await expect(cko.authorize(authorization(), signal())).rejects.toMatchObject({ reason: 'server-error', status: 502 });
  });

  it('classifies the documented 429 for a concurrent request under the same key as in progress, and performs once', async () => {
    const request = authorization();
    fake.processingDelayMs = 300;
    const [first, second] = await Promise.allSettled([
      cko.authorize(request, signal()),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => cko.authorize(request, signal())),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { kind: 'approved' } });
    expect(second).toMatchObject({ status: 'rejected', reason: { reason: 'in-progress', status: 429 } });
    expect(performed(request.idempotencyKey)).toHaveLength(1);
  });

  it('answers a repeated key with the first answer (documented idempotency), performing once', async () => {
    const request = authorization();
    const first = await cko.authorize(request, signal());
    expect(await cko.authorize(request, signal())).toEqual(first);
    expect(performed(request.idempotencyKey)).toHaveLength(1);
  });

  it('never takes another request’s stored answer under the same key as its own', async () => {
    const request = authorization();
    await cko.authorize(request, signal());
    await expect(cko.authorize({ ...request, amount: { currencyCode: 'AED', value: 2000 } }, signal())).rejects.toMatchObject({
      reason: 'idempotency-conflict',
    });
  });

  it('classifies bad credentials as a rejected request, keeping the key out of the error', async () => {
    const wrong = new CheckoutComProcessor({ ...configFor(fake), secretKey: 'sk_sbox_wrongwrongwrongwrongwrongwr' });
    const error = await wrong.authorize(authorization(), signal()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessorRejectedRequestError);
    expect(everythingIn(error)).not.toContain('sk_sbox_wrong');
  });

  it('keeps card data out of every error', async () => {
    fake.setFault('reset-after-receipt');
    const text = everythingIn(await cko.authorize(authorization(), signal()).catch((caught: unknown) => caught));
    expect(text).not.toContain(VISA_TOKEN);
    expect(text).not.toContain(CRYPTOGRAM);
  });
});

describe('Checkout.com captures, voids and refunds', () => {
  async function authorized(value = 1000) {
    const outcome = await cko.authorize(authorization({ amount: { currencyCode: 'AED', value } }), signal());
    return (outcome as { processorReference: string }).processorReference;
  }

  it('answers a capture 202 as pending, and the action’s result is found by its reference', async () => {
    const id = await authorized();
    const capture = modification('CAPTURE', id, 400);
    const outcome = await cko.modify(capture, signal());
    expect(outcome).toMatchObject({ kind: 'pending' });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`/payments/${id}/captures`);
    expect(sent.headers['cko-idempotency-key']).toBe(`capture:${capture.idempotencyKey}`);
    expect(sent.body).toEqual({ amount: 400, reference: capture.idempotencyKey });
    expect(await cko.recover({ operation: 'MODIFY', request: capture }, signal())).toEqual({
      kind: 'known',
      outcome: { kind: 'approved', processorReference: (outcome as { processorReference: string }).processorReference, resultCode: '10000' },
    });
  });

  it('voids without an amount and refunds partially', async () => {
    const voided = await authorized();
    const reversal = modification('REVERSAL', voided, 1000);
    await cko.modify(reversal, signal());
    expect(fake.requests.at(-1)!).toMatchObject({ path: `/payments/${voided}/voids`, body: { reference: reversal.idempotencyKey } });
    const captured = await authorized();
    await cko.modify(modification('CAPTURE', captured, 1000), signal());
    const refund = modification('REFUND', captured, 300);
    await cko.modify(refund, signal());
    expect(await cko.recover({ operation: 'MODIFY', request: refund }, signal())).toMatchObject({ kind: 'known', outcome: { kind: 'approved' } });
  });

  it('gets a capture beyond the authorization refused (not performed), and the lookup finds nothing', async () => {
    const id = await authorized(1000);
    await cko.modify(modification('CAPTURE', id, 600), signal());
    const excess = modification('CAPTURE', id, 600);
    const error = await cko.modify(excess, signal()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessorRejectedRequestError);
    expect(error).toMatchObject({ status: 422, errorCode: 'amount_exceeds_balance' });
    expect(await cko.recover({ operation: 'MODIFY', request: excess }, signal())).toEqual({ kind: 'absent' });
  });

  it('recovers a refund whose answer was lost from the actions, sent once', async () => {
    const id = await authorized();
    await cko.modify(modification('CAPTURE', id, 1000), signal());
    const refund = modification('REFUND', id, 1000);
    fake.setFault('lose-answer');
    await expect(new CheckoutComProcessor(configFor(fake, 300)).modify(refund, signal())).rejects.toMatchObject({ reason: 'timeout' });
    expect(await cko.recover({ operation: 'MODIFY', request: refund }, signal())).toMatchObject({ kind: 'known', outcome: { kind: 'approved' } });
    expect(performed(refund.idempotencyKey)).toHaveLength(1);
  });
});
