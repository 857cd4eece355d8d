import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paymentRepository } from '../../lib/composition/payments.js';
import type { Payment } from '../../lib/core/domain/payment.js';
import { checkoutResponse, currentRecipientKey } from '../support/checkout.js';
import { answerChallenge, completeThreeDs, pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * The final write does not ask DynamoDB to send the payment back when the lease holder knows
 * the item as its lease left it (payment-repository.ts `finish` with `leased`): it builds the
 * result itself. That result must be exactly what DynamoDB now holds, internal fields included
 * (version, settledBy, settledCredential, no lease fields), for every kind of final write.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
  await currentRecipientKey();
});
afterEach(() => vi.restoreAllMocks());

/** Every `finish` result during `run`, each with the item read back right after it. */
async function finishedVersusStored(run: () => Promise<unknown>): Promise<Array<{ returned: Payment; stored: Payment | undefined; sentBack: boolean }>> {
  const results: Array<{ returned: Payment; ref: Pick<Payment, 'orderRef' | 'paymentRef'>; sentBack: boolean }> = [];
  const finish = paymentRepository.finish.bind(paymentRepository);
  vi.spyOn(paymentRepository, 'finish').mockImplementation(async (payment, ...rest) => {
    const returned = await finish(payment, ...rest);
    results.push({ returned, ref: payment, sentBack: rest[5] === undefined });
    return returned;
  });
  await run();
  return Promise.all(
    results.map(async ({ returned, ref, sentBack }) => ({ returned, stored: await paymentRepository.get(ref.orderRef, ref.paymentRef), sentBack })),
  );
}

describe('the final write knows what it leaves', () => {
  it('an approval: the result built from the lease equals the stored item', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const [result] = await finishedVersusStored(() => pay(world, token, sdkResult));
    expect(result!.sentBack).toBe(false);
    expect(result!.returned.state).toBe('AUTHORISED');
    expect(result!.returned).toEqual(result!.stored);
    expect(result!.returned).not.toHaveProperty('leaseId');
  });

  it('a decline (FAILED), a 3DS step-up (AWAIT_3DS), then 3DS completed (from AWAIT_3DS) and a 3DS failure', async () => {
    const declined = await seedWorld({}, { amount: 1051 });
    const stepUp = await seedWorld();
    const failing = await seedWorld();
    const results = await finishedVersusStored(async () => {
      await pay(declined, token, await checkoutResponse());
      const awaiting = await pay(stepUp, token, await checkoutResponse({ card: 'visa-3ds' }));
      const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
      expect((await completeThreeDs(stepUp, token, cres!)).body.state).toBe('AUTHORISED');
      const waiting = await pay(failing, token, await checkoutResponse({ card: 'visa-3ds' }));
      const wrong = await answerChallenge(waiting.body.threeDs, '0000');
      expect((await completeThreeDs(failing, token, wrong.cres!)).body.state).toBe('FAILED');
    });
    expect(results.map((r) => r.returned.state)).toEqual(['FAILED', 'AWAIT_3DS', 'AUTHORISED', 'AWAIT_3DS', 'FAILED']);
    for (const { returned, stored, sentBack } of results) {
      expect(sentBack).toBe(false);
      // What 4.3 answered right then is what a later read finds, except what later writes changed.
      if (returned.state !== 'AWAIT_3DS') expect(returned).toEqual(stored);
    }
  });
});
