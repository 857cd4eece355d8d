/**
 * No card number, token number, cryptogram, signing secret or signature in an event body, a
 * stored event item, a delivery log line or the events API (GUIDE: nothing sensitive at rest
 * or in logs; SPEC §4.15).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventKey } from '../../lib/adapters/dynamodb/event-repository.js';
import { newSigningSecret } from '../../lib/core/webhooks/signing.js';
import { tokenData } from '../support/direct-wallet.js';
import { aed, authorizedWorld, capture, refund } from '../support/lifecycle.js';
import { storedItem } from '../support/stored-item.js';
import { platformToken } from '../support/tokens.js';
import { webhookDeliveryHarness } from '../support/webhook-delivery.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const { table, lines, closers, slowReceiver, worker, sweepAll, storedEvents, list } = webhookDeliveryHarness(() => token);
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('webhook delivery stores, sends and logs nothing sensitive', () => {
  it('event bodies, stored items and delivery logs carry no card number, cryptogram, secret or signature', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    await capture(w, token, aed(400));
    await refund(w, token, aed(100));
    const receiver = await slowReceiver(0, 500);
    const secret = newSigningSecret();
    const deps = worker(w.merchantRef, receiver.url, { secrets: [secret] });
    lines.length = 0;
    await sweepAll(deps);
    const items = await Promise.all((await storedEvents(w.merchantRef)).map((e) => storedItem(eventKey(w.merchantRef, e.id), table)));
    const everything = [JSON.stringify(items), ...receiver.received.map((r) => r.body), lines.join('\n'), (await list(w.merchantRef, token)).raw].join('\n');
    const card = tokenData();
    expect(receiver.received).toHaveLength(3);
    for (const needle of [card.token.paymentToken, card.dynamicData.dynamicDataValue, secret, secret.slice(6), 'v1,']) {
      expect(everything, needle).not.toContain(needle);
    }
  });
});
