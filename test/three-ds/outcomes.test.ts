import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJsonBase64Url } from '../../lib/adapters/three-ds/threedsecure-io/base64url.js';
import { ThreeDsServerCallError } from '../../lib/core/ports/three-ds-server-error.js';
import { account, prepared, seconds, startHarness, type Harness } from './support.js';

/**
 * ARes transStatus → the port's outcome, over real sockets against the fake 3DS Server, for
 * both protocol versions (decisions.ts: 1st digit 2 → 2.2.0 range, 3 → 2.3.1 range; 3rd digit
 * the ARes; 2nd digit 1 → no 3DS Method).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe.each([
  ['2.2.0', '2'],
  ['2.3.1', '3'],
] as const)('messageVersion %s', (version, v) => {
  it('Y is frictionless: the authentication value, ECI, DS transaction id and version go to the authorization', async () => {
    const { preparation, request } = await prepared(h, `${v}100`);
    expect(preparation).toMatchObject({ kind: 'ready', messageVersion: version });
    const outcome = await h.server.authenticate(request, seconds(5));
    expect(outcome.kind).toBe('frictionless');
    if (outcome.kind !== 'frictionless') return;
    expect(outcome.authentication).toMatchObject({ transStatus: 'Y', eci: '05', messageVersion: version, transactionId: request.transactionId });
    expect(outcome.authentication.authenticationValue).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(outcome.authentication.dsTransactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.fake.ledger.areqCount(request.transactionId)).toBe(1);
  });

  it('A (attempts) is frictionless too, with the attempts ECI', async () => {
    const { request } = await prepared(h, `${v}120`);
    const outcome = await h.server.authenticate(request, seconds(5));
    expect(outcome).toMatchObject({ kind: 'frictionless', authentication: { transStatus: 'A', eci: '06' } });
  });

  it('a Mastercard token gets Mastercard ECIs (02 authenticated)', async () => {
    const { request } = await prepared(h, `${v}100`, {}, 'MASTERCARD');
    const outcome = await h.server.authenticate(request, seconds(5));
    expect(outcome).toMatchObject({ kind: 'frictionless', authentication: { eci: '02' } });
  });

  it.each([
    ['N', '110', '01'],
    ['R', '130', '11'],
    ['U', '150', '22'],
  ])('%s fails the authentication and keeps transStatusReason', async (status, code, reason) => {
    const { request } = await prepared(h, `${v}${code}`);
    const outcome = await h.server.authenticate(request, seconds(5));
    expect(outcome).toEqual({
      kind: 'failed',
      transStatus: status,
      transStatusReason: reason,
      transactionId: request.transactionId,
      dsTransactionId: expect.any(String),
    });
  });

  it('I (informational only) proves no authentication: failed', async () => {
    const { request } = await prepared(h, `${v}140`);
    expect(await h.server.authenticate(request, seconds(5))).toMatchObject({ kind: 'failed', transStatus: 'I' });
  });

  it('D (decoupled) is refused as not supported', async () => {
    const { request } = await prepared(h, `${v}180`);
    expect(await h.server.authenticate(request, seconds(5))).toEqual({ kind: 'unsupported', transStatus: 'D', transactionId: request.transactionId });
  });

  it('C is a challenge: the ACS URL and a CReq for the window size the page chose', async () => {
    const { request } = await prepared(h, `${v}172`, { browser: { ...(await import('./support.js')).BROWSER, challengeWindowSize: '02' } });
    const outcome = await h.server.authenticate(request, seconds(5));
    expect(outcome.kind).toBe('challenge');
    if (outcome.kind !== 'challenge') return;
    expect(outcome.acsUrl).toBe(`${h.fake.acsUrl}/challenge`);
    expect(outcome.creq).not.toContain('=');
    expect(decodeJsonBase64Url(outcome.creq)).toEqual({
      threeDSServerTransID: request.transactionId,
      acsTransID: outcome.challenge.acsTransactionId,
      messageType: 'CReq',
      messageVersion: version,
      challengeWindowSize: '02',
    });
  });
});

describe('preauth', () => {
  it('a range with a 3DS Method gives its URL and the threeDSMethodData to post', async () => {
    const { preparation } = await prepared(h, '2070');
    expect(preparation.method?.url).toBe(`${h.fake.acsUrl}/method`);
    expect(decodeJsonBase64Url(preparation.method!.threeDSMethodData)).toEqual({
      threeDSServerTransID: preparation.transactionId,
      threeDSMethodNotificationURL: `${h.sink.url}/method-notification`,
    });
  });

  it('picks the highest version all parties support (2.3.1 when the ACS speaks 2.1.0–2.3.1)', async () => {
    const { preparation } = await prepared(h, '0100');
    expect(preparation.messageVersion).toBe('2.3.1');
  });

  it('an ACS of 2.1.0 only is an unsupported version (the service does not speak 2.1.0)', async () => {
    const preparation = await h.server.prepare({ brand: 'VISA', account: account('1100'), methodNotificationUrl: `${h.sink.url}/m` }, seconds(5));
    expect(preparation).toEqual({ kind: 'unsupported-version', acsVersions: '2.1.0–2.1.0' });
  });

  it('a card range enrolled nowhere is not-enrolled (Erro 305 "Unknown BIN")', async () => {
    const preparation = await h.server.prepare({ brand: 'VISA', account: account('9999'), methodNotificationUrl: `${h.sink.url}/m` }, seconds(5));
    expect(preparation).toEqual({ kind: 'not-enrolled' });
  });
});

describe('directory server trouble', () => {
  it('a DS timeout (Erro 405) is an erro failure: processed by the 3DS Server, no ARes', async () => {
    const { request } = await prepared(h, '2160');
    const error = await h.server.authenticate(request, seconds(5)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThreeDsServerCallError);
    expect(error).toMatchObject({ kind: 'erro', endpoint: '/auth', erro: { errorCode: '405', errorComponent: 'S' } });
  });
});
