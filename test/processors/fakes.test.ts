import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdyenFake, type AdyenFake } from '../fakes/adyen/fake.js';
import { startCheckoutComFake, type CheckoutComFake } from '../fakes/checkout-com/fake.js';
import { CRYPTOGRAM, VISA_TOKEN } from './support.js';

/** The fakes refuse what the processors' published schemas refuse, and perform nothing for it. */
let adyen: AdyenFake;
let cko: CheckoutComFake;
beforeAll(async () => {
  [adyen, cko] = await Promise.all([startAdyenFake(), startCheckoutComFake()]);
});
afterAll(() => Promise.all([adyen.close(), cko.close()]));

const adyenPayment = {
  merchantAccount: 'FakeMerchantECOM',
  reference: 'ref-1',
  amount: { currency: 'AED', value: 1000 },
  returnUrl: 'https://pay.test.example/checkout',
  paymentMethod: { type: 'networkToken', number: VISA_TOKEN, expiryMonth: '12', expiryYear: '2030' },
  mpiData: { tokenAuthenticationVerificationValue: CRYPTOGRAM, eci: '05' },
  shopperInteraction: 'Ecommerce',
};
const post = (fake: { url: string }, path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('Adyen fake validation', () => {
  it.each([
    ['without returnUrl (required by v71)', (({ returnUrl: _r, ...rest }) => rest)(adyenPayment)],
    ['with a member v71 does not define (closed object)', { ...adyenPayment, shopperReference_typo: 'x' }],
    ['with an unknown shopperInteraction', { ...adyenPayment, shopperInteraction: 'Online' }],
    [
      'with a cryptogram that is not base64 (format byte)',
      { ...adyenPayment, mpiData: { ...adyenPayment.mpiData, tokenAuthenticationVerificationValue: 'not base64!' } },
    ],
    ['with a currency of four letters', { ...adyenPayment, amount: { currency: 'AEDX', value: 1000 } }],
  ])('refuses a payment %s with 422 and performs nothing', async (_what, body) => {
    const before = adyen.ledger.length;
    const response = await post(adyen, '/payments', body, { 'x-api-key': adyen.apiKey, 'idempotency-key': crypto.randomUUID() });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ status: 422, errorType: 'validation' });
    expect(adyen.ledger.length).toBe(before);
    expect(adyen.rejections.at(-1)!.problems.join(' ')).not.toContain(VISA_TOKEN);
  });

  it('refuses a request without an Idempotency-Key', async () => {
    const response = await post(adyen, '/payments', adyenPayment, { 'x-api-key': adyen.apiKey });
    expect(response.status).toBe(422);
  });

  it('echoes the Idempotency-Key and answers a repeat with the first answer', async () => {
    const key = crypto.randomUUID();
    const first = await post(adyen, '/payments', adyenPayment, { 'x-api-key': adyen.apiKey, 'idempotency-key': key });
    const again = await post(adyen, '/payments', adyenPayment, { 'x-api-key': adyen.apiKey, 'idempotency-key': key });
    expect(first.headers.get('idempotency-key')).toBe(key);
    expect(await again.json()).toEqual(await first.json());
  });
});

describe('Checkout.com fake validation', () => {
  const payment = () => ({
    source: { type: 'network_token', token: VISA_TOKEN, expiry_month: 12, expiry_year: 2030, token_type: 'vts', cryptogram: CRYPTOGRAM, eci: '05' },
    amount: 1000,
    currency: 'AED',
    reference: crypto.randomUUID(),
    capture: false,
    processing_channel_id: cko.processingChannelId,
  });
  const auth = () => ({ authorization: `Bearer ${cko.secretKey}`, 'cko-idempotency-key': crypto.randomUUID() });

  it.each([
    ['a source without its cryptogram', (body: any) => ({ ...body, source: { ...body.source, cryptogram: undefined } })],
    ['an ECI of three characters', (body: any) => ({ ...body, source: { ...body.source, eci: '005' } })],
    ['an expiry month given as a string', (body: any) => ({ ...body, source: { ...body.source, expiry_month: '12' } })],
    ['an unknown token_type', (body: any) => ({ ...body, source: { ...body.source, token_type: 'amex' } })],
    ['a reference over 50 characters', (body: any) => ({ ...body, reference: 'r'.repeat(51) })],
    ['an IPv6 payment_ip (published format ipv4)', (body: any) => ({ ...body, payment_ip: '2001:db8::1' })],
    ['another account’s processing channel', (body: any) => ({ ...body, processing_channel_id: 'pc_aaaaaaaaaaaaaaaaaaaaaaaaaa' })],
  ])('refuses %s with 422 and performs nothing', async (_what, change) => {
    const before = cko.ledger.length;
    const response = await post(cko, '/payments', change(payment()), auth());
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error_type: 'request_invalid' });
    expect(cko.ledger.length).toBe(before);
  });

  it('keeps no idempotent result for a refused request: the same key is processed when corrected', async () => {
    const headers = auth();
    const body = payment();
    expect((await post(cko, '/payments', { ...body, source: { ...body.source, eci: '005' } }, headers)).status).toBe(422);
    expect((await post(cko, '/payments', body, headers)).status).toBe(201);
  });
});
