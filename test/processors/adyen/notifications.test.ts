import { describe, expect, it } from 'vitest';
import { hmacKeyBytes, signatureMatches, signingString, signItem } from '../../../lib/adapters/processors/adyen/notifications/hmac.js';
import { effectOf, notificationKey } from '../../../lib/adapters/processors/adyen/notifications/effects.js';
import { ForgedNotificationError, MalformedNotificationError, verifyNotification } from '../../../lib/adapters/processors/adyen/notifications/parse.js';
import { AdyenNotifier } from '../../fakes/adyen/notifier.js';

/**
 * Adyen's own vector: key, item and expected signature from its Node library's HMAC tests
 * (Adyen/adyen-node-api-library, src/__tests__/hmacValidator.spec.ts at 3b84a188).
 */
const ADYEN_KEY = 'DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00';
const ADYEN_ITEM = {
  pspReference: 'pspReference',
  originalReference: 'originalReference',
  merchantAccountCode: 'merchantAccount',
  merchantReference: 'reference',
  amount: { currency: 'EUR', value: 1000 },
  eventCode: 'REPORT_AVAILABLE',
  success: 'true',
};

const KEY = 'AB'.repeat(32);
const OLD_KEY = 'CD'.repeat(32);
const ACCOUNT = 'ShopECOM';
const notifier = (key = KEY) => new AdyenNotifier({ hmacKeyHex: key, merchantAccount: ACCOUNT });
const capture = {
  eventCode: 'CAPTURE',
  pspReference: 'QFQTPCQ8HXSKGK82',
  originalReference: 'V4HZ4RBFJGXXGN82',
  merchantReference: 'capture-ref-1',
  amount: { currency: 'AED', value: 500 },
  success: true,
};

describe('Adyen notification HMAC', () => {
  it('signs the eight fields joined by colons, as Adyen’s published vector', () => {
    expect(signingString(ADYEN_ITEM)).toBe('pspReference:originalReference:merchantAccount:reference:1000:EUR:REPORT_AVAILABLE:true');
    expect(signItem(ADYEN_ITEM, hmacKeyBytes(ADYEN_KEY))).toBe('ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=');
    expect(signatureMatches(ADYEN_ITEM, 'ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=', hmacKeyBytes(ADYEN_KEY))).toBe(true);
  });

  it('signs an absent originalReference as the empty field', () => {
    const { originalReference: _absent, ...authorisation } = ADYEN_ITEM;
    expect(signingString(authorisation)).toBe('pspReference::merchantAccount:reference:1000:EUR:REPORT_AVAILABLE:true');
  });

  it('refuses a key that is not hex', () => {
    expect(() => hmacKeyBytes('not-hex')).toThrow(RangeError);
    expect(() => verifyNotification({}, [], ACCOUNT)).toThrow(RangeError);
  });
});

describe('verifyNotification', () => {
  it('accepts a genuine notification', () => {
    const verified = verifyNotification(notifier().body(capture), [KEY], ACCOUNT);
    expect(verified.items).toHaveLength(1);
    expect(effectOf(verified.items[0]!)).toEqual({
      kind: 'modification',
      operation: 'CAPTURE',
      reference: 'capture-ref-1',
      processorReference: 'QFQTPCQ8HXSKGK82',
      paymentProcessorReference: 'V4HZ4RBFJGXXGN82',
      succeeded: true,
    });
  });

  it.each([
    ['an altered amount', (item: any) => ({ ...item, amount: { ...item.amount, value: 50000 } })],
    ['a flipped success', (item: any) => ({ ...item, success: 'false' })],
    ['another event code', (item: any) => ({ ...item, eventCode: 'REFUND' })],
    ['another reference', (item: any) => ({ ...item, merchantReference: 'someone-else' })],
    ['no signature', (item: any) => ({ ...item, additionalData: {} })],
    ['a signature of another length', (item: any) => ({ ...item, additionalData: { hmacSignature: 'AAAA' } })],
  ])('refuses a forged item (%s)', (_what, forge) => {
    const body = notifier().body(capture) as any;
    body.notificationItems[0].NotificationRequestItem = forge(body.notificationItems[0].NotificationRequestItem);
    expect(() => verifyNotification(body, [KEY], ACCOUNT)).toThrow(ForgedNotificationError);
  });

  it('refuses an item signed with another key', () => {
    expect(() => verifyNotification(notifier(OLD_KEY).body(capture), [KEY], ACCOUNT)).toThrow(ForgedNotificationError);
  });

  it('accepts the previous key while it is listed (rotation)', () => {
    expect(verifyNotification(notifier(OLD_KEY).body(capture), [KEY, OLD_KEY], ACCOUNT).items).toHaveLength(1);
  });

  it('refuses an item for another merchant account, even correctly signed', () => {
    expect(() => verifyNotification(notifier().body(capture), [KEY], 'OtherECOM')).toThrow(ForgedNotificationError);
  });

  it('refuses the whole request when one of its items is forged', () => {
    const good = notifier().body(capture) as any;
    const forged = notifier(OLD_KEY).body({ ...capture, merchantReference: 'capture-ref-2' }) as any;
    const both = { ...good, notificationItems: [...good.notificationItems, ...forged.notificationItems] };
    expect(() => verifyNotification(both, [KEY], ACCOUNT)).toThrow(ForgedNotificationError);
  });

  it.each([
    [{}],
    [{ live: 'false', notificationItems: [] }],
    [{ live: 'false', notificationItems: [{ NotificationRequestItem: { eventCode: 'CAPTURE' } }] }],
    ['[accepted]'],
  ])('refuses what is not a notification (%j)', (body) => {
    expect(() => verifyNotification(body, [KEY], ACCOUNT)).toThrow(MalformedNotificationError);
  });
});

describe('notification effects', () => {
  const item = (eventCode: string, success: boolean) => verifyNotification(notifier().body({ ...capture, eventCode, success }), [KEY], ACCOUNT).items[0]!;

  it.each([
    ['AUTHORISATION', true, { kind: 'authorization', approved: true }],
    ['AUTHORISATION', false, { kind: 'authorization', approved: false }],
    ['CAPTURE', false, { kind: 'modification', operation: 'CAPTURE', succeeded: false }],
    ['CANCELLATION', true, { kind: 'modification', operation: 'REVERSAL', succeeded: true }],
    ['REFUND', true, { kind: 'modification', operation: 'REFUND', succeeded: true }],
    ['CANCEL_OR_REFUND', true, { kind: 'modification', operation: 'CANCEL_OR_REFUND', succeeded: true }],
    ['CAPTURE_FAILED', true, { kind: 'modification-failed-later', operation: 'CAPTURE' }],
    ['REFUND_FAILED', true, { kind: 'modification-failed-later', operation: 'REFUND' }],
    ['TECHNICAL_CANCEL', true, { kind: 'authorization-cancelled' }],
    ['CHARGEBACK', true, { kind: 'ignored', eventCode: 'CHARGEBACK' }],
  ])('%s (success %s) means %j', (eventCode, success, effect) => {
    expect(effectOf(item(eventCode, success))).toMatchObject(effect);
  });

  it('gives a redelivered notification the same key, and another event another key', () => {
    expect(notificationKey(item('CAPTURE', true))).toBe(notificationKey(item('CAPTURE', true)));
    expect(notificationKey(item('CAPTURE', true))).not.toBe(notificationKey(item('CAPTURE', false)));
    expect(notificationKey(item('CAPTURE', true))).not.toBe(notificationKey(item('REFUND', true)));
  });
});
