import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as createPaymentLink } from '../../functions/create-payment-link/handler.js';
import { handler as putMerchantConfig } from '../../functions/put-merchant-config/handler.js';
import { createOrderBody } from '../../functions/create-order/schema.js';
import { createPaymentLinkBody } from '../../functions/create-payment-link/schema.js';
import { onboardingBody } from '../../functions/put-merchant-config/schema.js';
import { containsCardNumber, luhnValid, redactCardNumbers } from '../../lib/core/domain/card-numbers.js';
import { invoke, type InvokeOptions } from '../support/invoke.js';
import { seedMerchant, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * SPEC §3: no PAN at rest. Merchant free text holding a card number (a Luhn-valid run of 13–19
 * digits, spaces or dashes between them allowed) is refused with 400 naming the field, by the
 * rule the log redaction uses (lib/core/domain/card-numbers.ts: one detector), on every endpoint that
 * takes free text. URLs, emails and ids are not free text (README "Decisions").
 */
type Handler = (event: any, context: any) => Promise<unknown>;
interface FreeTextField {
  endpoint: string;
  field: string;
  handler: Handler;
  /** A valid request carrying `text` in the field. */
  request: (m: SeededMerchant, text: string) => InvokeOptions;
}

const amount = { currencyCode: 'AED', value: 1000 };
const orderRequest = (m: SeededMerchant, body: Record<string, unknown>): InvokeOptions => ({
  method: 'POST',
  path: `/transactions/outlets/${m.outletId}/orders`,
  pathParameters: { outletId: m.outletId },
  body: { action: 'AUTH', amount, ...body },
});
const linkRequest = (m: SeededMerchant, body: Record<string, unknown>): InvokeOptions => ({
  method: 'POST',
  path: `/transactions/outlets/${m.outletId}/payment-links`,
  pathParameters: { outletId: m.outletId },
  body: { action: 'AUTH', amount, ...body },
});
const onboardingRequest = (m: SeededMerchant, body: Record<string, unknown>): InvokeOptions => ({
  method: 'PUT',
  path: `/config/merchants/${m.merchantRef}/configs/vctp`,
  pathParameters: { merchantRef: m.merchantRef },
  body: {
    tenantRef: m.tenantRef,
    dpaId: 'dpa-demo',
    dpaClientId: 'dpa-client-demo',
    dpaName: 'Demo Shop',
    cardBrands: ['visa'],
    outlets: [m.outletId, m.otherOutletId],
    ...body,
  },
});

/** Every merchant free-text field of every endpoint (the zod request schemas' human-written strings). */
const FIELDS: FreeTextField[] = [
  {
    endpoint: '4.8 POST order',
    field: 'merchantOrderReference',
    handler: createOrder,
    request: (m, text) => orderRequest(m, { merchantOrderReference: text }),
  },
  { endpoint: '4.14 POST payment link', field: 'description', handler: createPaymentLink, request: (m, text) => linkRequest(m, { description: text }) },
  {
    endpoint: '4.14 POST payment link',
    field: 'merchantOrderReference',
    handler: createPaymentLink,
    request: (m, text) => linkRequest(m, { merchantOrderReference: text }),
  },
  { endpoint: '4.7 PUT merchant config', field: 'dpaName', handler: putMerchantConfig, request: (m, text) => onboardingRequest(m, { dpaName: text }) },
];

/** Test cards of the networks (13 to 19 digits), as merchants' staff paste them. */
const CARDS = ['4111111111111111', '5555555555554444', '378282246310005', '4222222222222', '6011000990139424', '3530111333300000', '4000000000000000006'];
const WRITTEN = [
  '4111111111111111',
  '4111 1111 1111 1111',
  '4111-1111-1111-1111',
  ' 4111111111111111 ',
  'Order for card 5555 5555 5555 4444, thanks',
  'amex 3782-822463-10005',
  'pan:4222222222222',
  '4000000000000000006', // 19 digits
  '4111.1111.1111.1111', // stricter than the SPEC: the redaction's separators
  '4111/1111/1111/1111',
];
const ACCEPTED = [
  'INV-42',
  'Invoice 42 for March',
  '4111111111111112',
  '411111111111',
  '2026-01-15 order 4711',
  'f0745073-fc9a-4bc1-2345-411111111111',
  'cart-4711',
];

let platform: string;
let merchant: SeededMerchant;
beforeAll(async () => {
  platform = await platformToken();
  merchant = await seedMerchant();
});

describe.each(FIELDS)('$endpoint $field', ({ field, handler, request }) => {
  it('refuses a card number, plain or grouped, with 400 INVALID_REQUEST naming the field and never echoing it', async () => {
    for (const text of WRITTEN) {
      const response = await invoke(handler, { ...request(merchant, text), token: platform });
      expect(response.status, `${text}: ${response.raw}`).toBe(400);
      expect(response.body.code).toBe('INVALID_REQUEST');
      expect(response.body.errors).toEqual([{ path: field, message: 'Must not contain a card number' }]);
      expect(response.raw.replace(/\D/g, '')).not.toContain(text.replace(/\D/g, ''));
    }
  });

  it('accepts ordinary text, ids and digit runs that are no card number', async () => {
    for (const text of ACCEPTED) {
      const response = await invoke(handler, { ...request(merchant, text), token: platform });
      expect(response.status, `${text}: ${response.raw}`).toBeLessThan(300);
    }
  });
});

describe('the rule is the log redaction’s', () => {
  const schemas = [
    (text: string) => createOrderBody.safeParse({ action: 'AUTH', amount, merchantOrderReference: text }),
    (text: string) => createPaymentLinkBody.safeParse({ action: 'AUTH', amount, description: text }),
    (text: string) => onboardingBody.safeParse({ tenantRef: 't', dpaId: 'd', dpaClientId: 'c', dpaName: text, cardBrands: ['visa'], outlets: [] }),
  ];
  const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: 12, maxLength: 20 });
  const luhnCard = fc
    .integer({ min: 13, max: 19 })
    .chain((length) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length - 1, maxLength: length - 1 }).map((body) => body + checkDigit(body)),
    );
  const grouped = fc
    .tuple(luhnCard, fc.constantFrom(' ', '-', '', '.'), fc.integer({ min: 3, max: 5 }))
    .map(([card, separator, size]) => card.match(new RegExp(`.{1,${size}}`, 'g'))!.join(separator));
  const text = fc.tuple(fc.constantFrom('', 'ref ', 'INV-', 'card: ', 'x'), fc.oneof(digits, grouped), fc.constantFrom('', ' thanks', '-A', '/2029', 'x'));

  it('property: a field is refused exactly when the logger would redact it', () => {
    fc.assert(
      fc.property(text, ([before, middle, after]) => {
        const value = `${before}${middle}${after}`.trim() || '0';
        const redacted = redactCardNumbers(value) !== value;
        expect(containsCardNumber(value)).toBe(redacted);
        for (const parse of schemas) {
          const result = parse(value);
          const refused = !result.success && result.error.issues.some((issue) => issue.message === 'Must not contain a card number');
          expect(refused, value).toBe(redacted);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('property: every Luhn-valid 13–19 digit card standing alone, grouped by spaces or dashes, is refused', () => {
    fc.assert(
      fc.property(grouped, (card) => {
        expect(containsCardNumber(card)).toBe(true);
        expect(containsCardNumber(`Paid with ${card} yesterday`)).toBe(true);
      }),
    );
  });

  it('the networks’ test cards are Luhn-valid (the fixtures above mean what they say)', () => {
    for (const card of CARDS) expect(luhnValid(card), card).toBe(true);
  });
});

function checkDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1) if (luhnValid(body + digit)) return String(digit);
  throw new Error('unreachable');
}
