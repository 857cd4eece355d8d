import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const world = await vi.hoisted(async () => {
  const { startProductionThreeDs } = await import('../support/production-three-ds.js');
  return startProductionThreeDs();
});

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as complete3ds } from '../../functions/complete-3ds/handler.js';
import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { buildSandboxCheckoutResponse } from '../../lib/adapters/sandbox/checkout-response.js';
import type { SandboxCard } from '../../lib/adapters/sandbox/sandbox-cards.js';
import { documentClient } from '../../lib/composition/aws.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { paymentRepository, sandboxAuthorizer } from '../../lib/composition/payments.js';
import type { AuthorizationRequest } from '../../lib/core/ports/authorizer.js';
import { logger } from '../../lib/core/ports/logger.js';
import { testAccount } from '../fakes/three-ds-server/index.js';
import { currentRecipientKey } from '../support/checkout.js';
import { invoke } from '../support/invoke.js';
import { BROWSER_HEADERS, BROWSER_INFO, formOf, postForm, THREE_DS_DEADLINE_MS, THREE_DS_REQUESTOR } from '../support/production-three-ds.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * SPEC 4.3, 4.10, 4.17: a PRODUCTION merchant's step-up through a 3DS Server — the reference
 * adapter (3dsecure.io's API) against the faithful fake (test/fakes/three-ds-server: validates
 * every message against the published field tables, decides by the token's last four digits,
 * test/fakes/three-ds-server/decisions.ts), the API key read from a secret by ARN, production
 * merchants authorized by the sandbox acquirer (PRODUCTION_ACQUIRER=sandbox).
 *
 * Token endings (version · method · ARes · challenge): `0100` frictionless Y, `0120` A, `0110` N,
 * `0130` R, `0150` U, `0140` I, `0180` D, `0172` challenge (code 1234), `0000` with a 3DS Method,
 * `0200` a 3DS Method that never completes, `9999` not enrolled, `1100` ACS of 2.1.0 only.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterAll(() => world.close());

const authorizer = sandboxAuthorizer!;
const authorizeCalls = () => vi.mocked(authorizer.authorize).mock.calls.map(([request]) => request as AuthorizationRequest);
vi.spyOn(authorizer, 'authorize');

type World = Awaited<ReturnType<typeof seedWorld>>;
const base = (w: World) => `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}`;
const params = (w: World) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });

async function productionWorld(options: { amount?: number; requestor?: boolean; brands?: ('visa' | 'mastercard')[] } = {}) {
  return seedWorld(
    {
      environment: 'production',
      threeDsPolicy: 'risk-based',
      cardBrands: options.brands ?? ['visa', 'mastercard'],
      ...(options.requestor === false ? {} : { threeDsRequestor: THREE_DS_REQUESTOR }),
    },
    { amount: options.amount ?? 1000, directWallet: true },
  );
}

/** A Visa checkout response (ECI 07: risk-based steps up) whose network token ends in `last4`. */
async function checkout(last4: string, eci = '07') {
  const card: SandboxCard = {
    id: `fake-${last4}`,
    brand: 'VISA',
    token: testAccount(last4),
    panBin: '411111',
    panLastFour: '1111',
    expiryMonth: '09',
    expiryYear: '2031',
    paymentAccountReference: 'V0010013819219553391925592151',
    descriptorName: 'Visa',
    eci,
  };
  return buildSandboxCheckoutResponse({ scheme: 'visa', signingKey: world.networkKey, recipientKey: await currentRecipientKey(), card, eci });
}

function pay(w: World, sdkResult: unknown, browserInfo: unknown = BROWSER_INFO) {
  // null: no browserInfo at all
  return invoke(payClickToPay, {
    method: 'POST',
    path: `${base(w)}/click-to-pay`,
    pathParameters: params(w),
    token,
    headers: BROWSER_HEADERS,
    sourceIp: '203.0.113.7',
    body: { checkoutResponse: sdkResult, ...(browserInfo === null ? {} : { browserInfo }) },
  });
}

function complete(w: World, body: unknown) {
  return invoke(complete3ds, { method: 'POST', path: `${base(w)}/3ds`, pathParameters: params(w), token, headers: BROWSER_HEADERS, body });
}

/** The browser's half of a challenge: the CReq to the ACS, the answer, and the CRes the ACS posts back. */
async function runChallenge(threeDs: { acsUrl: string; creq: string }, answer: Record<string, string>) {
  const page = await postForm(threeDs.acsUrl, { creq: threeDs.creq, threeDSSessionData: 'c2Vzc2lvbi0x' });
  expect(page.status).toBe(200);
  const form = formOf(page.html, threeDs.acsUrl);
  for (const [name, value] of Object.entries(answer)) form.fields.set(name, value);
  const ending = await postForm(form.action, form.fields);
  const post = formOf(ending.html, form.action);
  expect(post.action).toBe('https://pay.test.example/checkout/3ds-notification');
  return post.fields.get('cres')!;
}

const areqsOf = (transactionId: string) => world.fake.ledger.areqs.filter((entry) => entry.threeDSServerTransID === transactionId);
const lastAreq = () => world.fake.ledger.areqs.at(-1)!;

/** The stored payment item, raw: nothing of the authentication value may be in it. */
async function storedItems(w: World): Promise<string> {
  const read = async (sk: string) =>
    (await documentClient.send(new GetCommand({ TableName: serviceConfig.ORDERS_TABLE, Key: { pk: `ORDER#${w.orderRef}`, sk } }))).Item;
  return JSON.stringify([await read(`PAYMENT#${w.paymentRef}`), await read(`PAYMENT#${w.paymentRef}#3DS`)]);
}

describe('frictionless (ARes Y / A): authorized at once, no AWAIT_3DS', () => {
  it.each([
    ['0100', 'Y', '05'],
    ['0120', 'A', '06'],
  ])(
    'token …%s → ARes %s: 4.3 answers AUTHORISED; the authorization carries the authentication; the value is never stored',
    async (last4, transStatus, eci) => {
      const w = await productionWorld();
      const paid = await pay(w, await checkout(last4));
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ state: 'AUTHORISED', eci, authentication: { transStatus, eci, protocolVersion: '2.3.1' } });
      expect(paid.body).not.toHaveProperty('threeDs');
      const areq = lastAreq();
      expect(areq).toMatchObject({ threeDSCompInd: 'U', acctLast4: last4, answer: transStatus });
      const sent = authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.threeDs).toEqual({
        authenticationValue: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
        eci,
        dsTransactionId: paid.body.authentication.dsTransactionId,
        protocolVersion: '2.3.1',
        transStatus,
      });
      expect(sent[0]!.eci).toBe(eci);
      const stored = await storedItems(w);
      expect(stored).not.toContain(sent[0]!.threeDs!.authenticationValue);
      expect(stored).not.toContain(testAccount(last4));
    },
  );
});

describe('nothing secret in a log line', () => {
  it('at debug level, a frictionless and a challenged payment log neither the authentication value, the token, nor the API key', async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    logger.setLevel('debug');
    try {
      const frictionless = await productionWorld();
      await pay(frictionless, await checkout('0100'));
      const challenged = await productionWorld();
      const waiting = await pay(challenged, await checkout('0172'));
      const cres = await runChallenge(waiting.body.threeDs, { code: '1234', action: 'submit' });
      expect((await complete(challenged, { cres })).body.state).toBe('AUTHORISED');
    } finally {
      logger.setLevel('error');
      write.mockRestore();
    }
    const values = authorizeCalls()
      .slice(-2)
      .map((request) => request.threeDs!.authenticationValue);
    expect(values).toHaveLength(2);
    const logged = lines.join('');
    expect(logged).toContain('authenticated without a challenge'); // the lines were captured
    for (const secret of [...values, testAccount('0100'), testAccount('0172'), world.fake.apiKey]) expect(logged).not.toContain(secret);
  });
});

describe('refused (ARes N / R / U / I), decoupled (D), not enrolled', () => {
  it.each([
    ['0110', 'N', '01'],
    ['0130', 'R', '11'],
    ['0150', 'U', '22'],
    ['0140', 'I', undefined],
  ])('token …%s → ARes %s: FAILED THREE_DS_FAILED with transStatusReason kept; nothing authorized', async (last4, transStatus, reason) => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout(last4));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' }, authentication: { transStatus } });
    expect(paid.body.failure.reason).toContain(`transStatus ${transStatus}`);
    if (reason) expect(paid.body.authentication.transStatusReason).toBe(reason);
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(0);
  });

  it('ARes D (decoupled) is refused clearly: FAILED, "not supported", never authorized', async () => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0180'));
    expect(paid.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED', reason: 'Decoupled authentication is not supported' } });
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(0);
  });

  it.each([
    ['9999', 'not-enrolled'],
    ['1100', 'unsupported-version'],
  ])('token …%s (%s): the card cannot be authenticated → FAILED, never authorized unauthenticated', async (last4, kind) => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout(last4));
    expect(paid.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED', reason: `The card cannot be authenticated (${kind})` } });
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(0);
  });

  it('a merchant without a 3DS requestor profile cannot step up: FAILED, no AReq sent', async () => {
    const w = await productionWorld({ requestor: false });
    const before = world.fake.ledger.areqs.length;
    const paid = await pay(w, await checkout('0100'));
    expect(paid.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' } });
    expect(world.fake.ledger.areqs.length).toBe(before);
  });

  it('without browserInfo a production step-up is 400 naming it, and the payment stays STARTED (the same checkout response may come back with it)', async () => {
    const w = await productionWorld();
    const response = await checkout('0100');
    const refused = await pay(w, response, null);
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'browserInfo' })]);
    expect((await paymentRepository.get(w.orderRef, w.paymentRef))!.state).toBe('STARTED');
    expect((await pay(w, response)).body.state).toBe('AUTHORISED');
  });

  it('an authenticated checkout (ECI 05) does not step up at all', async () => {
    const w = await productionWorld();
    const before = world.fake.ledger.areqs.length;
    expect((await pay(w, await checkout('0110', '05'))).body).toMatchObject({ state: 'AUTHORISED', eci: '05' });
    expect(world.fake.ledger.areqs.length).toBe(before);
  });
});

describe('the AReq (fields the service sends)', () => {
  it('carries the network token, the order, the merchant per brand and the browser: the fake validated it against the published table', async () => {
    const w = await productionWorld();
    const preauths = world.fake.ledger.areqs.length;
    await pay(w, await checkout('0100'));
    expect(world.fake.ledger.areqs.length).toBe(preauths + 1);
    // The fake answers Erro 203 to an AReq that breaks its table; this one was answered Y.
    expect(lastAreq()).toMatchObject({ answer: 'Y', messageVersion: '2.3.1', acctLast4: '0100' });
  });
});

describe('challenge (ARes C): AWAIT_3DS, the verdict from the RReq', () => {
  async function challenged(amount?: number) {
    const w = await productionWorld(amount === undefined ? {} : { amount });
    const paid = await pay(w, await checkout('0172'));
    expect(paid.body).toMatchObject({ state: 'AWAIT_3DS', threeDs: { challengeWindowSize: '03' } });
    return { w, threeDs: paid.body.threeDs as { acsUrl: string; creq: string; transactionId: string } };
  }

  it('the CReq asks for the window size the page chose; the right code → AUTHORISED with the RReq’s authentication', async () => {
    const { w, threeDs } = await challenged();
    expect(JSON.parse(Buffer.from(threeDs.creq, 'base64url').toString())).toMatchObject({ challengeWindowSize: '03', messageType: 'CReq' });
    const cres = await runChallenge(threeDs, { code: '1234', action: 'submit' });
    const done = await complete(w, { cres });
    expect(done.body).toMatchObject({ state: 'AUTHORISED', eci: '05', authentication: { transStatus: 'Y', transactionId: threeDs.transactionId } });
    const sent = authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.threeDs).toMatchObject({ transStatus: 'Y', eci: '05', protocolVersion: '2.3.1', challenged: true }); // the RReq's, after an ARes C
    expect(await storedItems(w)).not.toContain(sent[0]!.threeDs!.authenticationValue);
    expect((await complete(w, { cres })).body.state).toBe('AUTHORISED'); // the same cres again: the same answer
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(1);
  });

  it('a wrong code → FAILED THREE_DS_FAILED from the RReq, even with the cres edited to say Y', async () => {
    const { w, threeDs } = await challenged();
    const cres = await runChallenge(threeDs, { code: '0000', action: 'submit' });
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(cres, 'base64url').toString()), transStatus: 'Y' })).toString('base64url');
    const done = await complete(w, { cres: forged });
    expect(done.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED' }, authentication: { transStatus: 'N' } });
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(0);
  });

  it('a forged cres before the ACS answered is 409 (no RReq yet) and changes nothing', async () => {
    const { w, threeDs } = await challenged();
    const creq = JSON.parse(Buffer.from(threeDs.creq, 'base64url').toString()) as Record<string, string>;
    const forged = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.3.1',
        threeDSServerTransID: creq.threeDSServerTransID,
        acsTransID: creq.acsTransID,
        transStatus: 'Y',
        challengeCompletionInd: 'Y',
      }),
    ).toString('base64url');
    const early = await complete(w, { cres: forged });
    expect([early.status, early.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    expect((await paymentRepository.get(w.orderRef, w.paymentRef))!.state).toBe('AWAIT_3DS');
  });

  it('a cres of another challenge (mismatched acsTransID, another payment’s) is 400; the payment keeps waiting', async () => {
    const { w, threeDs } = await challenged();
    const other = await challenged();
    const otherCres = await runChallenge(other.threeDs, { code: '1234', action: 'submit' });
    const creq = JSON.parse(Buffer.from(threeDs.creq, 'base64url').toString()) as Record<string, string>;
    const mismatched = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.3.1',
        threeDSServerTransID: creq.threeDSServerTransID,
        acsTransID: crypto.randomUUID(),
        transStatus: 'Y',
        challengeCompletionInd: 'Y',
      }),
    ).toString('base64url');
    for (const cres of [mismatched, otherCres]) {
      const refused = await complete(w, { cres });
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    expect((await paymentRepository.get(w.orderRef, w.paymentRef))!.state).toBe('AWAIT_3DS');
  });

  it('4.10 {threeDSCompInd} while a challenge runs is 409: the challenge is never restarted', async () => {
    const { w } = await challenged();
    const before = world.fake.ledger.areqs.length;
    const refused = await complete(w, { threeDSCompInd: 'Y', browserInfo: BROWSER_INFO });
    expect([refused.status, refused.body.code]).toEqual([409, 'PAYMENT_STATE_CONFLICT']);
    expect(world.fake.ledger.areqs.length).toBe(before);
  });
});

describe('the 3DS Method (hidden iframe, 10 s)', () => {
  it('a range with a 3DS Method: 4.3 answers AWAIT_3DS with threeDs.method; the completion, then 4.10 {threeDSCompInd: Y} → AReq says Y → AUTHORISED', async () => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0000'));
    expect(paid.body).toMatchObject({ state: 'AWAIT_3DS', threeDs: { method: { url: expect.stringContaining(world.fake.acsUrl) } } });
    expect(paid.body.threeDs).not.toHaveProperty('acsUrl');
    const { method, transactionId } = paid.body.threeDs as { method: { url: string; threeDSMethodData: string }; transactionId: string };
    expect(JSON.parse(Buffer.from(method.threeDSMethodData, 'base64url').toString())).toEqual({
      threeDSServerTransID: transactionId,
      threeDSMethodNotificationURL: 'https://pay.test.example/checkout/3ds-method-notification',
    });
    expect(areqsOf(transactionId)).toHaveLength(0); // no AReq before the method
    const page = await postForm(method.url, { threeDSMethodData: method.threeDSMethodData });
    expect(formOf(page.html, method.url).action).toBe('https://pay.test.example/checkout/3ds-method-notification');
    const done = await complete(w, { threeDSCompInd: 'Y', browserInfo: BROWSER_INFO });
    expect(done.body).toMatchObject({ state: 'AUTHORISED', authentication: { transStatus: 'Y', transactionId } });
    expect(areqsOf(transactionId)).toEqual([expect.objectContaining({ threeDSCompInd: 'Y', answer: 'Y' })]);
    // The same report again answers the same payment: no second AReq.
    expect((await complete(w, { threeDSCompInd: 'Y', browserInfo: BROWSER_INFO })).body.state).toBe('AUTHORISED');
    expect(areqsOf(transactionId)).toHaveLength(1);
  });

  it('the 3DS Method timing out (its page never completes): 4.10 {threeDSCompInd: N} → the AReq says N, authenticated all the same', async () => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0200'));
    const { method, transactionId } = paid.body.threeDs as { method: { url: string; threeDSMethodData: string }; transactionId: string };
    const page = await postForm(method.url, { threeDSMethodData: method.threeDSMethodData });
    expect(page.html).not.toContain('<form'); // nothing comes back: the page gives up after 10 s
    const done = await complete(w, { threeDSCompInd: 'N', browserInfo: BROWSER_INFO });
    expect(done.body.state).toBe('AUTHORISED');
    expect(areqsOf(transactionId)).toEqual([expect.objectContaining({ threeDSCompInd: 'N' })]);
  });

  it('a 3DS Method, then a challenge: AWAIT_3DS twice (method, then the CReq), the same attempt’s transaction id throughout', async () => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0072'));
    const { method, transactionId } = paid.body.threeDs as { method: { url: string; threeDSMethodData: string }; transactionId: string };
    await postForm(method.url, { threeDSMethodData: method.threeDSMethodData });
    const challenged = await complete(w, { threeDSCompInd: 'Y', browserInfo: { ...BROWSER_INFO, challengeWindowSize: '05' } });
    expect(challenged.body).toMatchObject({ state: 'AWAIT_3DS', threeDs: { transactionId, challengeWindowSize: '05', acsUrl: expect.any(String) } });
    expect(challenged.body.threeDs).not.toHaveProperty('method');
    // The same report again answers the waiting challenge, no second AReq.
    expect((await complete(w, { threeDSCompInd: 'Y', browserInfo: BROWSER_INFO })).body.threeDs.transactionId).toBe(transactionId);
    expect(areqsOf(transactionId)).toHaveLength(1);
    const cres = await runChallenge(challenged.body.threeDs, { code: '1234', action: 'submit' });
    expect((await complete(w, { cres })).body).toMatchObject({ state: 'AUTHORISED', authentication: { transactionId, transStatus: 'Y' } });
  });

  it('a payment left at its 3DS Method expires as before: once the kept JWE is gone, 4.10 ends it FAILED THREE_DS_EXPIRED, no AReq', async () => {
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0000'));
    expect(paid.body.state).toBe('AWAIT_3DS');
    await paymentRepository.deletePendingThreeDs(w.orderRef, w.paymentRef); // what its TTL does after 1 h
    const late = await complete(w, { threeDSCompInd: 'Y', browserInfo: BROWSER_INFO });
    expect(late.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_EXPIRED' } });
    expect(areqsOf(paid.body.threeDs.transactionId)).toHaveLength(0);
  });

  it('4.10 {threeDSCompInd} needs browserInfo, and a cres is refused while the 3DS Method runs', async () => {
    const w = await productionWorld();
    await pay(w, await checkout('0000'));
    const noBrowser = await complete(w, { threeDSCompInd: 'Y' });
    expect(noBrowser.status).toBe(400);
    const cres = Buffer.from(
      JSON.stringify({ messageType: 'CRes', threeDSServerTransID: crypto.randomUUID(), acsTransID: crypto.randomUUID(), transStatus: 'Y' }),
    ).toString('base64url');
    expect((await complete(w, { cres })).status).toBe(400);
  });
});

describe('faults: deadlines and at most one AReq per attempt', () => {
  it('a lost ARes (processed, answer lost): recovered by transaction id, never sent again; 502, and the retry starts a new attempt', async () => {
    const w = await productionWorld();
    const response = await checkout('0100');
    world.fake.faults.inject('/auth', 'lose-answer');
    const lost = await pay(w, response);
    expect([lost.status, lost.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    const first = lastAreq();
    expect(first.answer).toMatch(/lose-answer|Y/);
    expect(areqsOf(first.threeDSServerTransID)).toHaveLength(1);
    expect(world.fake.ledger.postauths).toContain(first.threeDSServerTransID); // asked, not re-sent
    expect((await paymentRepository.get(w.orderRef, w.paymentRef))!.state).toBe('STARTED');
    const retried = await pay(w, response);
    expect(retried.body.state).toBe('AUTHORISED');
    expect(retried.body.authentication.transactionId).not.toBe(first.threeDSServerTransID);
    expect(areqsOf(first.threeDSServerTransID)).toHaveLength(1);
  });

  it('a hung 3DS Server (/auth never answers): 502 within the deadline, the AReq never sent twice; the retry authenticates', async () => {
    const w = await productionWorld();
    const response = await checkout('0100');
    world.fake.faults.inject('/auth', 'hang');
    const started = Date.now();
    const hung = await pay(w, response);
    expect([hung.status, hung.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(Date.now() - started).toBeLessThan(THREE_DS_DEADLINE_MS * 3 + 2_000); // /auth, then /postauth
    expect((await paymentRepository.get(w.orderRef, w.paymentRef))!.state).toBe('STARTED');
    expect((await pay(w, response)).body.state).toBe('AUTHORISED');
  });

  it('an Erro from the 3DS Server (its directory server timed out: Erro 405): 502 each time, a new attempt each retry, and after 3 attempts FAILED', async () => {
    const w = await productionWorld();
    const response = await checkout('0160');
    const ids = new Set<string>();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const refused = await pay(w, response);
      expect([refused.status, refused.body.code], `attempt ${attempt}`).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
      expect(lastAreq().answer).toMatch(/^erro 405/);
      ids.add(lastAreq().threeDSServerTransID);
    }
    expect(ids.size).toBe(3); // never the same transaction id twice
    const exhausted = await pay(w, response);
    expect(exhausted.body).toMatchObject({ state: 'FAILED', failure: { code: 'THREE_DS_FAILED', reason: 'Cardholder authentication could not be completed' } });
  });

  it('a hung /preauth: 502 within its deadline, nothing sent', async () => {
    const w = await productionWorld();
    world.fake.faults.inject('/preauth', 'hang');
    const before = world.fake.ledger.areqs.length;
    const hung = await pay(w, await checkout('0100'));
    expect([hung.status, hung.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(world.fake.ledger.areqs.length).toBe(before);
  });

  it('a 3DS Server answering 503 to /auth (unprocessed, no Erro): recovered, 502, and the retry succeeds', async () => {
    const w = await productionWorld();
    const response = await checkout('0100');
    world.fake.faults.inject('/auth', 'http-503');
    expect((await pay(w, response)).status).toBe(502);
    expect((await pay(w, response)).body.state).toBe('AUTHORISED');
  });

  it('a lost challenge ARes (no RReq yet): the attempt is spent, never re-sent; the retry’s new attempt challenges and completes', async () => {
    const w = await productionWorld();
    const response = await checkout('0172');
    world.fake.faults.inject('/auth', 'lose-answer');
    expect((await pay(w, response)).status).toBe(502);
    const first = lastAreq();
    const retried = await pay(w, response);
    expect(retried.body.state).toBe('AWAIT_3DS');
    expect(retried.body.threeDs.transactionId).not.toBe(first.threeDSServerTransID);
    const cres = await runChallenge(retried.body.threeDs, { code: '1234', action: 'submit' });
    expect((await complete(w, { cres })).body).toMatchObject({ state: 'AUTHORISED', authentication: { transactionId: retried.body.threeDs.transactionId } });
    expect(areqsOf(first.threeDSServerTransID)).toHaveLength(1);
  });

  it('a payment whose AReq claim is found unresolved (a crash mid-AReq) is recovered first: an RReq that arrived meanwhile decides', async () => {
    const w = await productionWorld();
    const response = await checkout('0172');
    world.fake.faults.inject('/auth', 'lose-answer');
    world.fake.faults.inject('/postauth', 'http-503'); // the recovery itself fails: the claim stays unresolved
    expect((await pay(w, response)).status).toBe(502);
    const first = lastAreq();
    expect(await paymentRepository.getPendingThreeDs(w.orderRef, w.paymentRef, Date.now())).toMatchObject({
      phase: 'areq-sent',
      areqSentFor: first.threeDSServerTransID,
    });
    // The ACS gives up on the CReq after creqTimeoutMs (5 s here) and sends its RReq (N, challengeCancel).
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const recovered = await pay(w, response);
    expect(recovered.body).toMatchObject({
      state: 'FAILED',
      failure: { code: 'THREE_DS_FAILED' },
      authentication: { transStatus: 'N', challengeCancel: expect.any(String) },
    });
    expect(areqsOf(first.threeDSServerTransID)).toHaveLength(1);
    expect(authorizeCalls().filter((request) => request.idempotencyKey === w.paymentRef)).toHaveLength(0);
  }, 20_000);

  it('the API key is read from its secret once per warm function, and never appears in an answer', async () => {
    const reads = world.secrets.reads();
    const w = await productionWorld();
    const paid = await pay(w, await checkout('0100'));
    expect(paid.body.state).toBe('AUTHORISED');
    expect(world.secrets.reads()).toBe(reads); // read by an earlier payment of this file, kept since
    expect(paid.raw).not.toContain(world.fake.apiKey);
  });
});

describe('4.4 Direct Wallet (a merchant server for a browser it serves)', () => {
  const directBody = (last4: string, browserInfo?: unknown) => ({
    token: { paymentToken: testAccount(last4), tokenExpirationMonth: '09', tokenExpirationYear: '2031' },
    dynamicData: [{ dynamicDataValue: 'AAABBBCCCDDDEEEFFF000111222=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM' }],
    eci: '07',
    ...(browserInfo ? { browserInfo } : {}),
  });
  const payDirectly = (w: World, body: unknown) =>
    invoke(payDirect, { method: 'POST', path: `${base(w)}/click-to-pay/direct`, pathParameters: params(w), token, body, query: { payer_ip: '203.0.113.9' } });

  it('steps up with the shopper’s browserInfo (userAgent given in the body): frictionless → AUTHORISED', async () => {
    const w = await productionWorld();
    const paid = await payDirectly(w, directBody('0100', { ...BROWSER_INFO, userAgent: BROWSER_HEADERS['user-agent'] }));
    expect(paid.body).toMatchObject({ state: 'AUTHORISED', authentication: { transStatus: 'Y' } });
  });

  it('without the shopper’s userAgent (the request is the merchant server’s): 400 naming browserInfo.userAgent', async () => {
    const w = await productionWorld();
    const refused = await payDirectly(w, directBody('0100', BROWSER_INFO));
    expect([refused.status, refused.body.errors?.[0]?.path]).toEqual([400, 'browserInfo.userAgent']);
  });
});
