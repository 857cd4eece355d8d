import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ThreeDSecureIoServer } from '../../lib/adapters/three-ds/threedsecure-io/server.js';
import { ThreeDsServerCallError } from '../../lib/core/ports/three-ds-server-error.js';
import { startFakeThreeDsServer, type FakeThreeDsServer } from '../fakes/three-ds-server/index.js';
import { account, BROWSER, REQUESTOR, seconds } from './support.js';

/**
 * The payment functions hold the 3dsecure.io adapter through threeDSecureIoServerOnFirstUse
 * (lib/composition/three-ds-server.ts): the adapter is imported (by the loader the composition
 * gives) at the first call to the 3DS Server (test/deploy/bundle-contents.test.ts: not read at a cold start). Held so, it answers as
 * the adapter does; `requires` and `checkCres` answer before it is loaded; a failed load is
 * not-sent and tried again.
 */
const SERVER = '../../lib/adapters/three-ds/threedsecure-io/server.js';
/** As the composition gives it: the adapter's module imported at the first call. */
const load = async () => (await import(SERVER)).ThreeDSecureIoServer as typeof ThreeDSecureIoServer;
const onFirstUse = async () => {
  const { threeDSecureIoServerOnFirstUse } = await import('../../lib/adapters/three-ds/threedsecure-io/on-first-use.js');
  return (options: Parameters<typeof threeDSecureIoServerOnFirstUse>[0]) => threeDSecureIoServerOnFirstUse(options, load);
};

let fake: FakeThreeDsServer;
beforeAll(async () => {
  fake = await startFakeThreeDsServer();
});
afterAll(() => fake.close());

describe('the 3dsecure.io adapter loaded on first use', () => {
  it('prepares and authenticates as the adapter itself does, and says what it requires', async () => {
    const options = { baseUrl: fake.apiUrl, apiKey: fake.apiKey, loopbackHttpAllowed: true };
    const server = (await onFirstUse())(options);
    expect(server.requires).toEqual(new ThreeDSecureIoServer(options).requires);
    const preparation = await server.prepare({ brand: 'VISA', account: account('2000'), methodNotificationUrl: 'http://127.0.0.1:9/method' }, seconds(5));
    if (preparation.kind !== 'ready') throw new Error(`not ready: ${preparation.kind}`);
    const outcome = await server.authenticate(
      {
        transactionId: preparation.transactionId,
        messageVersion: preparation.messageVersion,
        brand: 'VISA',
        account: account('2000'),
        amount: { value: 1000, currencyCode: 'AED' },
        purchaseDate: new Date('2026-11-25T10:11:12Z'),
        requestor: REQUESTOR,
        browser: BROWSER,
        threeDSCompInd: preparation.method ? 'N' : 'U',
        notificationUrl: 'http://127.0.0.1:9/checkout/3ds-notification',
      },
      seconds(5),
    );
    expect(outcome.kind).toBe('frictionless');
  });

  it('checks a CRes before anything is loaded (a cold 4.10)', async () => {
    const server = (await onFirstUse())({ baseUrl: fake.apiUrl, apiKey: fake.apiKey });
    const challenge = { transactionId: '6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb', acsTransactionId: '0b3d2c7e-6a3f-4f3e-9d7b-5a1c2e3f4a5b' };
    const cres = Buffer.from(
      JSON.stringify({
        messageType: 'CRes',
        messageVersion: '2.2.0',
        threeDSServerTransID: challenge.transactionId,
        acsTransID: challenge.acsTransactionId,
        transStatus: 'Y',
      }),
    ).toString('base64url');
    expect(server.checkCres(cres, { ...challenge, messageVersion: '2.2.0', brand: 'VISA' })).toEqual({ kind: 'matches', transStatus: 'Y' });
  });

  it('an adapter that cannot be loaded is not-sent, and the next call loads it', async () => {
    vi.resetModules();
    vi.doMock(SERVER, () => {
      throw new Error('chunk missing');
    });
    const server = (await onFirstUse())({ baseUrl: fake.apiUrl, apiKey: fake.apiKey, loopbackHttpAllowed: true });
    const request = { brand: 'VISA' as const, account: account('2000'), methodNotificationUrl: 'http://127.0.0.1:9/method' };
    const failed = await server.prepare(request, seconds(5)).catch((error: unknown) => error);
    // After resetModules the adapter's error class is another instance of the module: compare by name.
    expect(failed).toMatchObject({ name: ThreeDsServerCallError.name, kind: 'not-sent', endpoint: '/preauth' });
    vi.doUnmock(SERVER);
    expect((await server.prepare(request, seconds(5))).kind).toBe('ready');
  });
});
