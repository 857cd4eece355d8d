import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJsonBase64Url } from '../../lib/adapters/three-ds/threedsecure-io/base64url.js';
import { parseMethodCompletion } from '../../lib/adapters/three-ds/threedsecure-io/method.js';
import type { AuthenticationOutcome } from '../../lib/core/ports/three-ds-server.js';
import { formOf, postForm, prepared, seconds, startHarness, type Harness } from './support.js';

/**
 * The browser's part of EMV 3DS with a plain HTTP client doing what the page would: the 3DS
 * Method (form-POST threeDSMethodData → the ACS page posts the completion back), then the
 * challenge (form-POST creq → the ACS page → answer → the ACS form-POSTs the CRes to the
 * notification URL). The verdict is read with /postauth (the RReq), never from the CRes.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Challenge = Extract<AuthenticationOutcome, { kind: 'challenge' }>;

async function challenged(last4: string): Promise<Challenge> {
  const { request } = await prepared(h, last4);
  const outcome = await h.server.authenticate(request, seconds(5));
  if (outcome.kind !== 'challenge') throw new Error(`expected a challenge, got ${outcome.kind}`);
  return outcome;
}

/** Posts the CReq, answers the ACS's page, and returns what the ACS posted to the notification URL. */
async function runChallenge(challenge: Challenge, answer: Record<string, string>, sessionData = 'c2Vzc2lvbi0x') {
  const page = await postForm(challenge.acsUrl, { creq: challenge.creq, threeDSSessionData: sessionData });
  expect(page.status).toBe(200);
  const form = formOf(page.html, challenge.acsUrl);
  for (const [name, value] of Object.entries(answer)) form.fields.set(name, value);
  const ending = await postForm(form.action, form.fields);
  const post = formOf(ending.html, form.action);
  expect(post.action).toBe(`${h.sink.url}/checkout/3ds-notification`);
  await postForm(post.action, post.fields);
  return { cres: post.fields.get('cres')!, sessionData: post.fields.get('threeDSSessionData') };
}

describe('3DS Method', () => {
  it('the ACS page posts threeDSMethodData naming the transaction to the notification URL, and the AReq may say Y', async () => {
    const { preparation, request } = await prepared(h, '2000');
    const page = await postForm(preparation.method!.url, { threeDSMethodData: preparation.method!.threeDSMethodData });
    const completion = formOf(page.html, preparation.method!.url);
    expect(completion.action).toBe(`${h.sink.url}/method-notification`);
    expect(parseMethodCompletion(completion.fields.get('threeDSMethodData')!)).toBe(preparation.transactionId);
    const outcome = await h.server.authenticate({ ...request, threeDSCompInd: 'Y' }, seconds(5));
    expect(outcome.kind).toBe('frictionless');
    expect(h.fake.ledger.methodClaims).not.toContain(preparation.transactionId);
  });

  it('a completion is read padded or not (3dsmethod.rst)', () => {
    const id = '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb';
    // 64 bytes of JSON (63 and a space): base64 needs '==' of padding.
    const json = `{"threeDSServerTransID":"${id}"}`.padEnd(64, ' ');
    const padded = Buffer.from(json).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    expect(padded.endsWith('=')).toBe(true);
    expect(parseMethodCompletion(padded)).toBe(id);
    expect(parseMethodCompletion('not json')).toBeUndefined();
  });

  it('a range whose method never completes gives a page that posts nothing (the page times out after 10 s: N)', async () => {
    const { preparation, request } = await prepared(h, '2200');
    const page = await postForm(preparation.method!.url, { threeDSMethodData: preparation.method!.threeDSMethodData });
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<form');
    expect(await h.server.authenticate({ ...request, threeDSCompInd: 'N' }, seconds(5))).toMatchObject({ kind: 'frictionless' });
  });
});

describe.each(['2.2.0', '2.3.1'] as const)('challenge, %s', (version) => {
  const v = version === '2.2.0' ? '2' : '3';

  it('the right code: the CRes reaches the notification URL with the session data, and the RReq says Y with the authentication value', async () => {
    const challenge = await challenged(`${v}172`);
    expect(await h.server.challengeResult(challenge.challenge, seconds(5))).toEqual({ kind: 'pending' });
    const { cres, sessionData } = await runChallenge(challenge, { code: '1234', action: 'submit' });
    expect(sessionData).toBe('c2Vzc2lvbi0x');
    expect(h.server.checkCres(cres, challenge.challenge)).toEqual({ kind: 'matches', transStatus: 'Y' });
    const result = await h.server.challengeResult(challenge.challenge, seconds(5));
    expect(result).toMatchObject({
      kind: 'authenticated',
      authentication: { transStatus: 'Y', eci: '05', messageVersion: version, acsTransactionId: challenge.challenge.acsTransactionId },
    });
    expect(h.fake.ledger.creqs.find((c) => c.acsTransID === challenge.challenge.acsTransactionId)?.challengeWindowSize).toBe('05');
  });

  it('a wrong code: RReq N', async () => {
    const challenge = await challenged(`${v}172`);
    await runChallenge(challenge, { code: '9999', action: 'submit' });
    expect(await h.server.challengeResult(challenge.challenge, seconds(5))).toEqual({ kind: 'failed', transStatus: 'N', transStatusReason: '01' });
  });

  it('Cancel: RReq N with challengeCancel 01', async () => {
    const challenge = await challenged(`${v}172`);
    await runChallenge(challenge, { action: 'cancel' });
    expect(await h.server.challengeResult(challenge.challenge, seconds(5))).toEqual({
      kind: 'failed',
      transStatus: 'N',
      transStatusReason: '01',
      challengeCancel: '01',
    });
  });
});

describe('the verdict is the RReq, never the CRes', () => {
  it('a forged CRes that claims Y for a failed challenge names the challenge but the verdict stays N', async () => {
    const challenge = await challenged('2171');
    const { cres } = await runChallenge(challenge, {});
    expect(h.server.checkCres(cres, challenge.challenge)).toEqual({ kind: 'matches', transStatus: 'N' });
    const forged = encodeJsonBase64Url({
      messageType: 'CRes',
      messageVersion: '2.2.0',
      threeDSServerTransID: challenge.challenge.transactionId,
      acsTransID: challenge.challenge.acsTransactionId,
      challengeCompletionInd: 'Y',
      transStatus: 'Y',
    });
    expect(h.server.checkCres(forged, challenge.challenge)).toEqual({ kind: 'matches', transStatus: 'Y' });
    expect(await h.server.challengeResult(challenge.challenge, seconds(5))).toMatchObject({ kind: 'failed', transStatus: 'N' });
  });

  it('a CRes of another challenge is told apart; garbage is malformed', async () => {
    const one = await challenged('2170');
    const other = await challenged('2170');
    const { cres } = await runChallenge(other, {});
    expect(h.server.checkCres(cres, one.challenge)).toEqual({ kind: 'other-challenge' });
    expect(h.server.checkCres('bm90IGEgY3Jlcw', one.challenge)).toEqual({ kind: 'malformed' });
  });

  it('a challenge that passed by itself (auto-pass range) is authenticated once; a second answer is refused', async () => {
    const challenge = await challenged('2170');
    await runChallenge(challenge, {});
    const again = await postForm(`${h.fake.acsUrl}/challenge/answer`, { acsTransID: challenge.challenge.acsTransactionId, code: '1234' });
    expect(again.status).toBe(409);
    expect(h.fake.ledger.rreqs.filter((r) => r.threeDSServerTransID === challenge.challenge.transactionId)).toHaveLength(1);
    expect(await h.server.challengeResult(challenge.challenge, seconds(5))).toMatchObject({ kind: 'authenticated' });
  });
});

describe('the ACS refuses what is not a CReq of its challenge', () => {
  it('a CReq with a window size outside the table, or of another version', async () => {
    const challenge = await challenged('2172');
    const base = {
      threeDSServerTransID: challenge.challenge.transactionId,
      acsTransID: challenge.challenge.acsTransactionId,
      messageType: 'CReq',
      messageVersion: '2.2.0',
    };
    expect((await postForm(challenge.acsUrl, { creq: encodeJsonBase64Url({ ...base, challengeWindowSize: '06' }) })).status).toBe(400);
    expect((await postForm(challenge.acsUrl, { creq: encodeJsonBase64Url({ ...base, messageVersion: '2.3.1', challengeWindowSize: '01' }) })).status).toBe(400);
    expect((await postForm(challenge.acsUrl, { creq: encodeJsonBase64Url({ ...base, challengeWindowSize: '01' }) })).status).toBe(200);
  });
});

describe('a padded CRes (3dsecure.io sandbox habit)', () => {
  it('is read all the same', async () => {
    const padded = await startHarness({ paddedCres: true });
    try {
      const { request } = await prepared(padded, '2170');
      const outcome = await padded.server.authenticate(request, seconds(5));
      if (outcome.kind !== 'challenge') throw new Error('expected a challenge');
      const page = await postForm(outcome.acsUrl, { creq: outcome.creq });
      const answer = formOf(page.html, outcome.acsUrl);
      const ending = await postForm(answer.action, answer.fields);
      const cres = formOf(ending.html, answer.action).fields.get('cres')!;
      expect(cres).toMatch(/=$/);
      expect(padded.server.checkCres(cres, outcome.challenge)).toEqual({ kind: 'matches', transStatus: 'Y' });
    } finally {
      await padded.close();
    }
  });
});
