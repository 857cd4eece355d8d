import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompleteAuthenticationRequest } from '../../lib/adapters/three-ds/threedsecure-io/areq.js';
import type { MessageVersion } from '../../lib/core/ports/three-ds-server.js';
import { testAccount } from '../fakes/three-ds-server/test-cards.js';

/**
 * The 3DS Server adapter is imported by every payment function (4.3, 4.4, 4.10), but only a
 * production step-up reads its field tables: the zod schemas built from them (tens of
 * milliseconds for the AReq's) are built on first use, once per table, version and variant, and
 * never at import (docs/benchmarks.md "Cold start").
 */
vi.mock('../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js')>();
  return { ...actual, schemaOf: vi.fn(actual.schemaOf) };
});

const { schemaOf } = await import('../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js');
const built = vi.mocked(schemaOf);
const tablesBuilt = () => built.mock.calls.map(([table, options]) => `${table.table}${options.loopbackHttpAllowed ? ' loopback' : ''}`);

// Everything the adapter evaluates when it is loaded (at the first step-up: threedsecure-io/on-first-use.ts).
const { ThreeDSecureIoServer } = await import('../../lib/adapters/three-ds/threedsecure-io/server.js');
const { buildAReq } = await import('../../lib/adapters/three-ds/threedsecure-io/areq.js');
const { ThreeDSecureIoClient } = await import('../../lib/adapters/three-ds/threedsecure-io/client.js');
const { checkCres } = await import('../../lib/adapters/three-ds/threedsecure-io/cres-check.js');
const atImport = tablesBuilt();
// Only now the fixtures: ./support.ts imports the adapter itself.
const { BROWSER, REQUESTOR } = await import('./support.js');

const TRANSACTION = '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb';
const request = (messageVersion: MessageVersion): CompleteAuthenticationRequest => ({
  transactionId: TRANSACTION,
  messageVersion,
  brand: 'VISA',
  account: { number: testAccount('2100'), expiryMonth: '09', expiryYear: '2031' },
  amount: { value: 1050, currencyCode: 'AED' },
  purchaseDate: new Date('2026-11-25T10:11:12.345Z'),
  requestor: REQUESTOR,
  browser: BROWSER,
  threeDSCompInd: 'Y',
  notificationUrl: 'https://pay.example.com/checkout/3ds-notification',
});
const answering =
  (body: Record<string, unknown>): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status: 200 });
const signal = () => new AbortController().signal;

describe('the 3DS Server adapter builds its field-table schemas on first use', () => {
  beforeEach(() => {
    built.mockClear();
  });

  it('importing the adapter (and constructing it, as a cold start does) builds no schema', () => {
    expect(atImport).toEqual([]);
    new ThreeDSecureIoServer({ baseUrl: 'https://service.3dsecure.io', apiKey: 'key' });
    expect(tablesBuilt()).toEqual([]);
  });

  it('the AReq schema of a version is built at its first AReq, and kept', () => {
    buildAReq(request('2.2.0'));
    buildAReq(request('2.2.0'));
    expect(tablesBuilt()).toEqual(['areq_220']);
    buildAReq(request('2.3.1'));
    buildAReq(request('2.3.1'), { loopbackHttpAllowed: true });
    expect(tablesBuilt()).toEqual(['areq_220', 'areq_231', 'areq_231 loopback']);
  });

  it('the CRD reader is built at the first /preauth answer, and kept', async () => {
    const crd = { messageType: 'CRD', threeDSServerTransID: TRANSACTION, acsStartProtocolVersion: '2.2.0', acsEndProtocolVersion: '2.3.1', scheme: 'visa' };
    const client = new ThreeDSecureIoClient({ baseUrl: 'https://service.3dsecure.io', apiKey: 'key', fetch: answering(crd) });
    expect(tablesBuilt()).toEqual([]);
    await client.preauth({ acctNumber: testAccount('2100') }, signal());
    await client.preauth({ acctNumber: testAccount('2100') }, signal());
    expect(tablesBuilt()).toEqual(['crd']);
  });

  it('the ARes and RReq readers of a version are built at its first answer, and kept', async () => {
    const ares = {
      messageType: 'ARes',
      messageVersion: '2.2.0',
      threeDSServerTransID: TRANSACTION,
      acsTransID: '0b3d2c7e-6a3f-4f3e-9d7b-5a1c2e3f4a5b',
      dsTransID: '1c4e3d8f-7b4a-4a4f-8e8c-6b2d3f4a5b6c',
      transStatus: 'Y',
      authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
      eci: '05',
    };
    const areq = { messageVersion: '2.2.0' as const, threeDSServerTransID: TRANSACTION };
    const auth = new ThreeDSecureIoClient({ baseUrl: 'https://service.3dsecure.io', apiKey: 'key', fetch: answering(ares) });
    await auth.auth(areq, signal());
    await auth.auth(areq, signal());
    expect(tablesBuilt()).toEqual(['ares_220']);
    const postauth = new ThreeDSecureIoClient({ baseUrl: 'https://service.3dsecure.io', apiKey: 'key', fetch: answering({ ...ares, messageType: 'RReq' }) });
    await postauth.postauth(TRANSACTION, signal());
    await postauth.postauth(TRANSACTION, signal());
    expect(tablesBuilt()).toEqual(['ares_220', 'rreq_220']);
  });

  it('the CRes schema of a version is built at the first CRes checked, and kept', () => {
    const challenge = {
      transactionId: TRANSACTION,
      acsTransactionId: '0b3d2c7e-6a3f-4f3e-9d7b-5a1c2e3f4a5b',
      messageVersion: '2.3.1' as const,
      brand: 'VISA' as const,
    };
    const cres = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.3.1',
        threeDSServerTransID: TRANSACTION,
        acsTransID: challenge.acsTransactionId,
        transStatus: 'Y',
      }),
    ).toString('base64url');
    expect(checkCres(cres, challenge)).toEqual({ kind: 'matches', transStatus: 'Y' });
    expect(checkCres(cres, challenge)).toEqual({ kind: 'matches', transStatus: 'Y' });
    expect(tablesBuilt()).toEqual(['cres_231']);
  });
});
