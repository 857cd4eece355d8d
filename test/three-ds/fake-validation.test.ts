import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAReq } from '../../lib/adapters/three-ds/threedsecure-io/areq.js';
import { ThreeDSecureIoServer } from '../../lib/adapters/three-ds/threedsecure-io/server.js';
import { account, prepared, REQUESTOR, seconds, startHarness, type Harness } from './support.js';

/**
 * The fake 3DS Server refuses what the published tables refuse (that is what makes a passing
 * client test mean something): raw requests, one defect each, and the Erro the fake answers.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function post(endpoint: string, body: unknown, apiKey = h.fake.apiKey) {
  const response = await fetch(`${h.fake.apiUrl}${endpoint}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', APIKey: apiKey },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A valid AReq for a fresh transaction of a range (2.2.0 by default), to spoil one field of. */
async function validAReq(last4 = '2100') {
  const { request } = await prepared(h, last4);
  return buildAReq(request, { loopbackHttpAllowed: true }) as Record<string, unknown>;
}

describe('AReq', () => {
  it('a valid AReq is answered with an ARes (the baseline the other cases spoil)', async () => {
    const answer = await post('/auth', await validAReq());
    expect(answer).toMatchObject({ status: 200, body: { messageType: 'ARes', transStatus: 'Y' } });
  });

  it('a missing required field: Erro 201 naming it', async () => {
    const { browserAcceptHeader: _, ...areq } = await validAReq();
    const answer = await post('/auth', areq);
    expect(answer.body).toMatchObject({ messageType: 'Erro', errorCode: '201', errorComponent: 'S', errorMessageType: 'AReq' });
    expect(answer.body.errorDetail).toContain('browserAcceptHeader');
  });

  it('a field longer than the table allows: Erro 203 naming it', async () => {
    const answer = await post('/auth', { ...(await validAReq()), merchantName: 'M'.repeat(41) });
    expect(answer.body).toMatchObject({ errorCode: '203' });
    expect(answer.body.errorDetail).toContain('merchantName');
  });

  it('a field outside its pattern, enum or format: Erro 203', async () => {
    for (const [field, value] of [
      ['purchaseExponent', '12'],
      ['browserColorDepth', '30'],
      ['purchaseCurrency', '999'],
      ['purchaseDate', '20261331101112'],
      ['browserIP', '300.1.1.1'],
    ] as const) {
      const answer = await post('/auth', { ...(await validAReq()), [field]: value });
      expect(answer.body.errorCode, field).toBe('203');
      expect(answer.body.errorDetail, field).toContain(field);
    }
  });

  it('a field the browser channel does not have: Erro 203', async () => {
    const answer = await post('/auth', { ...(await validAReq()), sdkTransID: '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb' });
    expect(answer.body).toMatchObject({ errorCode: '203' });
    expect(answer.body.errorDetail).toContain('sdkTransID');
  });

  it('a conditional field missing when its condition holds (browserColorDepth with JavaScript on): Erro 201', async () => {
    const { browserColorDepth: _, ...areq } = await validAReq();
    expect((await post('/auth', areq)).body).toMatchObject({ errorCode: '201', errorDetail: expect.stringContaining('browserColorDepth') });
    const {
      browserColorDepth: _depth,
      browserScreenHeight: _height,
      browserScreenWidth: _width,
      browserTZ: _tz,
      browserJavaEnabled: _java,
      ...noScript
    } = await validAReq();
    expect((await post('/auth', { ...noScript, browserJavascriptEnabled: false })).body).toMatchObject({ messageType: 'ARes' });
  });

  describe('2.2.0 and 2.3.1 differ', () => {
    it('2.3.1 requires acceptLanguage, acquirerCountryCode and acquirerCountryCodeSource', async () => {
      for (const field of ['acceptLanguage', 'acquirerCountryCode', 'acquirerCountryCodeSource']) {
        const { [field]: _, ...areq } = await validAReq('3100');
        expect((await post('/auth', areq)).body, field).toMatchObject({ errorCode: '201', errorDetail: expect.stringContaining(field) });
      }
    });

    it('2.2.0 has no acceptLanguage', async () => {
      const answer = await post('/auth', { ...(await validAReq('2100')), acceptLanguage: ['en'] });
      expect(answer.body).toMatchObject({ errorCode: '203', errorDetail: expect.stringContaining('acceptLanguage') });
    });

    it('threeDSRequestorChallengeInd is a string in 2.2.0 and an array in 2.3.1', async () => {
      expect((await post('/auth', { ...(await validAReq('3100')), threeDSRequestorChallengeInd: '01' })).body).toMatchObject({ errorCode: '203' });
      expect((await post('/auth', { ...(await validAReq('2100')), threeDSRequestorChallengeInd: ['01'] })).body).toMatchObject({ errorCode: '203' });
    });

    it('2.3.1 wants an https notification URL (a fake with no loopback allowance refuses http)', async () => {
      const strict = await startHarness({ loopbackHttpAllowed: false });
      try {
        const { request } = await prepared(strict, '3100');
        const areq = buildAReq(request, { loopbackHttpAllowed: true });
        const response = await fetch(`${strict.fake.apiUrl}/auth`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', APIKey: strict.fake.apiKey },
          body: JSON.stringify(areq),
        });
        expect(await response.json()).toMatchObject({ errorCode: '203', errorDetail: expect.stringContaining('notificationURL') });
        // The adapter, without the allowance, refuses it before sending: nothing reaches the server.
        const published = new ThreeDSecureIoServer({ baseUrl: strict.fake.apiUrl, apiKey: strict.fake.apiKey });
        const { request: second } = await prepared(strict, '3100');
        await expect(published.authenticate(second, seconds(5))).rejects.toMatchObject({
          kind: 'not-sent',
          message: expect.stringContaining('notificationURL'),
        });
        expect(strict.fake.ledger.areqCount(second.transactionId)).toBe(0);
      } finally {
        await strict.close();
      }
    });
  });

  it('a second AReq for the same transaction is refused and counted: the ledger would show a double send', async () => {
    const areq = await validAReq();
    expect((await post('/auth', areq)).status).toBe(200);
    expect((await post('/auth', areq)).body).toMatchObject({ errorCode: '305' });
    expect(h.fake.ledger.areqCount(areq.threeDSServerTransID as string)).toBe(2);
  });

  it('threeDSCompInd must be U exactly when the range has no 3DS Method', async () => {
    expect((await post('/auth', { ...(await validAReq('2000')), threeDSCompInd: 'U' })).body).toMatchObject({ errorCode: '305' });
    expect((await post('/auth', { ...(await validAReq('2100')), threeDSCompInd: 'Y' })).body).toMatchObject({ errorCode: '305' });
  });

  it('an AReq for a transaction no preauth opened, or with another account number: refused', async () => {
    expect((await post('/auth', { ...(await validAReq()), threeDSServerTransID: '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb' })).body).toMatchObject({
      errorCode: '301',
    });
    expect((await post('/auth', { ...(await validAReq()), acctNumber: account('2110').number })).body).toMatchObject({ errorCode: '305' });
  });

  it('a version the range does not speak: Erro 102', async () => {
    expect((await post('/auth', { ...(await validAReq('2100')), messageVersion: '2.1.0' })).body).toMatchObject({ errorCode: '102' });
  });
});

describe('preauth, postauth and the envelope', () => {
  it('preauth: acctNumber is required and 13–19 digits', async () => {
    expect((await post('/preauth', { ds: 'visa' })).body).toMatchObject({ errorCode: '201' });
    expect((await post('/preauth', { acctNumber: '123456789012' })).body).toMatchObject({ errorCode: '203' });
    expect((await post('/preauth', { acctNumber: account('2100').number, ds: 'dinersclub' })).body).toMatchObject({ errorCode: '203' });
  });

  it('postauth: threeDSServerTransID is a UUID', async () => {
    expect((await post('/postauth', { threeDSServerTransID: 'nope' })).body).toMatchObject({ errorCode: '203' });
  });

  it('not JSON: Erro 101; no API key: 401', async () => {
    expect((await post('/auth', 'not json')).body).toMatchObject({ errorCode: '101' });
    const unauthorised = await fetch(`${h.fake.apiUrl}/preauth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.text()).toBe('Invalid API Key');
  });
});

describe('the adapter refuses an AReq the table would refuse, before sending it', () => {
  it('a merchant name too long for the AReq: not-sent, naming the field, never a value', async () => {
    const { request } = await prepared(h, '2100', { requestor: { ...REQUESTOR, merchantName: 'M'.repeat(41) } });
    const error = (await h.server.authenticate(request, seconds(5)).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ kind: 'not-sent', message: expect.stringContaining('merchantName') });
    expect(error.message).not.toContain(request.account.number);
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(0);
  });
});
