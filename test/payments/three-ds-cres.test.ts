import { beforeAll, describe, expect, it } from 'vitest';
import { paymentRepository } from '../../lib/composition/payments.js';
import { checkoutResponse } from '../support/checkout.js';
import { answerChallenge, authorizerCalls, completeThreeDs, cresFor, pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * SPEC 4.10: the cres comes through the shopper's browser, so it proves nothing. The outcome
 * is the 3DS server's (for the sandbox: what the ACS recorded, its RReq); a cres that names
 * another challenge is refused, one that contradicts the result fails the payment.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});

async function awaitingChallenge() {
  const world = await seedWorld();
  const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
  expect(awaiting.body.state).toBe('AWAIT_3DS');
  return { world, threeDs: awaiting.body.threeDs as { acsUrl: string; creq: string; transactionId: string } };
}

const decode = (value: string) => JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, string>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('4.10 with a forged or tampered cres', () => {
  it('a failed challenge whose cres is edited to say Y → FAILED THREE_DS_FAILED, nothing authorized', async () => {
    const { world, threeDs } = await awaitingChallenge();
    const { cres } = await answerChallenge(threeDs, '0000');
    const tampered = encode({ ...decode(cres!), transStatus: 'Y' });
    const done = await completeThreeDs(world, token, tampered);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
    expect(authorizerCalls(world.paymentRef)).toBe(0);
  });

  it('a forged "Y" before the ACS answered is 409 and changes nothing; the real answer still counts', async () => {
    const { world, threeDs } = await awaitingChallenge();
    const forged = await completeThreeDs(world, token, cresFor(threeDs, 'Y'));
    expect([forged.status, forged.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    const { cres } = await answerChallenge(threeDs, '1234');
    const done = await completeThreeDs(world, token, cres!);
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05' });
  });

  it('a cres naming another acsTransID, or another payment’s challenge, is 400: the payment keeps waiting', async () => {
    const { world, threeDs } = await awaitingChallenge();
    const other = await awaitingChallenge();
    const { cres: otherCres } = await answerChallenge(other.threeDs, '1234');
    const { cres } = await answerChallenge(threeDs, '1234');
    for (const wrong of [cresFor(threeDs, 'Y', { acsTransID: crypto.randomUUID() }), otherCres!]) {
      const refused = await completeThreeDs(world, token, wrong);
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    expect((await paymentRepository.get(world.orderRef, world.paymentRef))!.state).toBe('AWAIT_3DS');
    expect((await completeThreeDs(world, token, cres!)).body.state).toBe('AUTHORISED');
  });

  it('a successful challenge whose cres is edited to say N is authorized all the same: the RReq decides, never the cres', async () => {
    const { world, threeDs } = await awaitingChallenge();
    const { cres } = await answerChallenge(threeDs, '1234');
    const done = await completeThreeDs(world, token, encode({ ...decode(cres!), transStatus: 'N' }));
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05', authentication: { transStatus: 'Y', transactionId: threeDs.transactionId } });
    expect(authorizerCalls(world.paymentRef)).toBe(1);
  });

  it('not a CRes at all → 400 (a CReq, missing ids, not JSON)', async () => {
    const { world, threeDs } = await awaitingChallenge();
    const creq = decode(threeDs.creq);
    for (const bad of [
      threeDs.creq,
      encode({ messageType: 'CRes', threeDSServerTransID: creq.threeDSServerTransID, transStatus: 'Y' }),
      encode('CRes'),
      'bm90LWpzb24',
    ]) {
      const response = await completeThreeDs(world, token, bad);
      expect(response.status, bad).toBe(400);
    }
  });
});
