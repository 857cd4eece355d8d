import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdyenProcessor } from '../../../lib/adapters/processors/adyen/adapter.js';
import { adyenAdapterConfig } from '../../../lib/adapters/processors/adyen/config.js';
import { ProcessorMaybeSentError, ProcessorNotReachedError, ProcessorRejectedRequestError } from '../../../lib/adapters/processors/transport/failures.js';
import { OperationNotPerformedError } from '../../../lib/core/ports/authorizer.js';
import { startAdyenFake, type AdyenFake } from '../../fakes/adyen/fake.js';
import { attempted, authorization, CRYPTOGRAM, everythingIn, frictionless, signal, VISA_TOKEN } from '../support.js';

let fake: AdyenFake;
let adyen: AdyenProcessor;

const configFor = (fake: AdyenFake, timeoutMs = 2000) =>
  adyenAdapterConfig.parse({
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    merchantAccount: fake.merchantAccount,
    returnUrl: 'https://pay.test.example/checkout',
    timeoutMs,
  });

beforeAll(async () => {
  fake = await startAdyenFake();
  adyen = new AdyenProcessor(configFor(fake));
});
afterEach(() => {
  fake.clearFaults();
  fake.processingDelayMs = 0;
  // Every request the adapter sent matched Adyen's published schema.
  expect(fake.rejections).toEqual([]);
});
afterAll(() => fake.close());

const lastPaymentBody = () => fake.requests.filter((request) => request.path === '/payments').at(-1)!.body as Record<string, any>;
const performed = (reference: string) => fake.ledger.filter((entry) => entry.reference === reference);

describe('Adyen authorization', () => {
  it('approves with the pspReference, under an Idempotency-Key derived from the paymentRef', async () => {
    const request = authorization();
    const outcome = await adyen.authorize(request, signal());
    expect(outcome).toMatchObject({ kind: 'approved', resultCode: 'Authorised' });
    const entry = performed(request.idempotencyKey);
    expect(entry).toHaveLength(1);
    expect(outcome).toMatchObject({ processorReference: entry[0]!.pspReference });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(`authorize:${request.idempotencyKey}`);
    expect(sent.headers['x-api-key']).toBe(fake.apiKey);
  });

  it('sends the network token, its expiry, the TAVV and Ecommerce, without a recurring model', async () => {
    await adyen.authorize(authorization(), signal());
    const body = lastPaymentBody();
    expect(body.paymentMethod).toEqual({ type: 'networkToken', number: VISA_TOKEN, expiryMonth: '12', expiryYear: '2030' });
    expect(body.mpiData.tokenAuthenticationVerificationValue).toBe(CRYPTOGRAM);
    expect(body.shopperInteraction).toBe('Ecommerce');
    expect(body).not.toHaveProperty('recurringProcessingModel');
    expect(body.shopperIP).toBe('203.0.113.7');
  });

  it.each([
    ['VISA', '05', '05'],
    ['VISA', '06', '06'],
    ['MASTERCARD', '02', '02'],
    ['MASTERCARD', '01', '01'],
    ['VISA', undefined, '07'],
    ['MASTERCARD', undefined, '00'],
  ])('sends the payment’s own ECI (%s %s → %s), never a constant', async (brand, eci, sent) => {
    await adyen.authorize(authorization({ brand, eci }), signal());
    expect(lastPaymentBody().mpiData.eci).toBe(sent);
  });

  it('asks for manual capture on AUTH and immediate capture on PURCHASE', async () => {
    await adyen.authorize(authorization({ capture: false }), signal());
    expect(lastPaymentBody()).toMatchObject({ additionalData: { manualCapture: 'true' } });
    expect(lastPaymentBody()).not.toHaveProperty('captureDelayHours');
    await adyen.authorize(authorization({ capture: true }), signal());
    expect(lastPaymentBody()).toMatchObject({ captureDelayHours: 0 });
    expect(lastPaymentBody()).not.toHaveProperty('additionalData');
  });

  it('puts a 3DS result in mpiData (cavv, 3DS ECI, dsTransID, version, transStatus as directoryResponse) without authenticationResponse', async () => {
    await adyen.authorize(authorization({ eci: '07', threeDs: frictionless }), signal());
    expect(lastPaymentBody().mpiData).toEqual({
      tokenAuthenticationVerificationValue: CRYPTOGRAM,
      eci: '05',
      cavv: frictionless.authenticationValue,
      dsTransID: frictionless.dsTransactionId,
      threeDSVersion: '2.2.0',
      directoryResponse: 'Y',
    });
  });

  it('after a challenge: directoryResponse C (the ARes) and authenticationResponse the RReq’s transStatus', async () => {
    await adyen.authorize(authorization({ threeDs: { ...frictionless, challenged: true } }), signal());
    expect(lastPaymentBody().mpiData).toMatchObject({ directoryResponse: 'C', authenticationResponse: 'Y', cavv: frictionless.authenticationValue, eci: '05' });
  });

  it('sends an attempted authentication as it is: transStatus A, its own ECI', async () => {
    await adyen.authorize(authorization({ threeDs: attempted }), signal());
    expect(lastPaymentBody().mpiData).toMatchObject({ directoryResponse: 'A', eci: '06', cavv: attempted.authenticationValue });
    expect(lastPaymentBody().mpiData).not.toHaveProperty('authenticationResponse');
  });

  it.each([
    [1051, 'INSUFFICIENT_FUNDS', 'soft', 'adyen:12/51'],
    [1005, 'DO_NOT_HONOUR', 'soft', 'adyen:27/05'],
    [1054, 'CARD_EXPIRED', 'hard', 'adyen:6/54'],
    [1041, 'LOST_OR_STOLEN', 'hard', 'adyen:5/41'],
    [1062, 'RESTRICTED_CARD', 'hard', 'adyen:25/62'],
    [1096, 'ISSUER_UNAVAILABLE', 'soft', 'adyen:4'],
  ])('maps a refusal (amount %i) to %s (%s) keeping the raw code, not Adyen’s text', async (value, reason, retry, processorCode) => {
    const outcome = await adyen.authorize(authorization({ amount: { currencyCode: 'AED', value } }), signal());
    expect(outcome).toMatchObject({ kind: 'declined', decline: { reason, retry, processorCode } });
    expect(JSON.stringify(outcome)).not.toContain('Refused by the fake');
  });

  it('reports Received as pending, not approved', async () => {
    const outcome = await adyen.authorize(authorization({ amount: { currencyCode: 'AED', value: 1077 } }), signal());
    expect(outcome.kind).toBe('pending');
  });

  it('refuses a PAN credential before sending anything', async () => {
    const before = fake.requests.length;
    const request = authorization();
    await expect(adyen.authorize({ ...request, credential: { ...request.credential, kind: 'card' } }, signal())).rejects.toBeInstanceOf(
      OperationNotPerformedError,
    );
    expect(fake.requests.length).toBe(before);
  });
});

describe('Adyen failures: certainly not sent', () => {
  it('classifies a refused connection as not reached, and performs nothing', async () => {
    const request = authorization();
    await fake.setRefusing(true);
    try {
      const error = await adyen.authorize(request, signal()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProcessorNotReachedError);
      expect(error).toMatchObject({ reason: 'connection-refused' });
    } finally {
      await fake.setRefusing(false);
    }
    expect(performed(request.idempotencyKey)).toEqual([]);
  });

  it('classifies a name that does not resolve as not reached', async () => {
    const nowhere = new AdyenProcessor({ ...configFor(fake), baseUrl: 'https://adyen-checkout.invalid/v71' });
    await expect(nowhere.authorize(authorization(), signal())).rejects.toMatchObject({ name: 'ProcessorNotReachedError', reason: 'dns' });
  });

  it('classifies bad credentials as a rejected request (not performed, not retried)', async () => {
    const wrongKey = new AdyenProcessor({ ...configFor(fake), apiKey: 'AQE_not_the_key' });
    const error = await wrongKey.authorize(authorization(), signal()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessorRejectedRequestError);
    expect(error).toMatchObject({ status: 401, errorCode: '000' });
    expect(everythingIn(error)).not.toContain('AQE_not_the_key');
  });
});

describe('Adyen failures: maybe sent, then recovered by replay under the same key', () => {
  const quick = () => new AdyenProcessor(configFor(fake, 300));

  it('times out on a processor that never answers, performs nothing, and the replay performs it once', async () => {
    const request = authorization();
    fake.setFault('hang');
    const error = await quick()
      .authorize(request, signal())
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProcessorMaybeSentError', reason: 'timeout' });
    expect(performed(request.idempotencyKey)).toEqual([]);
    const recovered = await adyen.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey, request }, signal());
    expect(recovered).toMatchObject({ kind: 'known', outcome: { kind: 'approved' } });
    expect(performed(request.idempotencyKey)).toHaveLength(1);
  });

  it.each(['lose-answer', 'reset-after-receipt', 'server-error-after-perform'] as const)(
    'after %s the replay returns the first answer and nothing is performed twice',
    async (fault) => {
      const request = authorization();
      fake.setFault(fault);
      const error = await quick()
        .authorize(request, signal())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProcessorMaybeSentError);
      expect(error).not.toBeInstanceOf(OperationNotPerformedError);
      const [first] = performed(request.idempotencyKey);
      const recovered = await adyen.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey, request }, signal());
      expect(recovered).toEqual({ kind: 'known', outcome: expect.objectContaining({ kind: 'approved', processorReference: first!.pspReference }) });
      expect(performed(request.idempotencyKey)).toHaveLength(1);
    },
  );

  it('classifies a 5xx as maybe sent', async () => {
    fake.setFault('server-error');
    await expect(adyen.authorize(authorization(), signal())).rejects.toMatchObject({ name: 'ProcessorMaybeSentError', reason: 'server-error', status: 500 });
  });

  it('answers in-progress (704) while the first request under the key is still running', async () => {
    const request = authorization();
    fake.processingDelayMs = 600;
    await expect(quick().authorize(request, signal())).rejects.toMatchObject({ reason: 'timeout' });
    expect(await adyen.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey, request }, signal())).toEqual({ kind: 'in-progress' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await adyen.recover({ operation: 'AUTHORIZE', reference: request.idempotencyKey, request }, signal())).toMatchObject({
      kind: 'known',
      outcome: { kind: 'approved' },
    });
    expect(performed(request.idempotencyKey)).toHaveLength(1);
  });

  it('cannot recover an authorization without its request (only the AUTHORISATION notification can)', async () => {
    expect(await adyen.recover({ operation: 'AUTHORIZE', reference: crypto.randomUUID() }, signal())).toEqual({ kind: 'needs-request' });
  });

  it('never takes the first answer of another request under the same key as its own', async () => {
    const request = authorization();
    await adyen.authorize(request, signal());
    const other = { ...request, amount: { currencyCode: 'AED', value: 2000 } };
    await expect(adyen.authorize(other, signal())).rejects.toMatchObject({ reason: 'idempotency-conflict' });
    expect(performed(request.idempotencyKey)).toHaveLength(1);
  });

  it('keeps card data out of every error', async () => {
    fake.setFault('reset-after-receipt');
    const error = await adyen.authorize(authorization(), signal()).catch((caught: unknown) => caught);
    const text = everythingIn(error);
    expect(text).not.toContain(VISA_TOKEN);
    expect(text).not.toContain(CRYPTOGRAM);
    expect(text).not.toContain(fake.apiKey);
  });
});

describe('Adyen transient errors', () => {
  it('takes an error marked Transient-Error: true as not performed, but never a 704', async () => {
    const { createServer } = await import('node:http');
    let answer = { status: 500, body: { status: 500, errorCode: '905', errorType: 'internal', message: 'Payment details are not supported' } };
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(answer.status, { 'content-type': 'application/json', 'transient-error': 'true', connection: 'close' }).end(JSON.stringify(answer.body)),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const transient = new AdyenProcessor({ ...configFor(fake), baseUrl: `http://127.0.0.1:${port}` });
      await expect(transient.authorize(authorization(), signal())).rejects.toMatchObject({
        name: 'ProcessorNotReachedError',
        reason: 'processor-transient-refusal',
      });
      answer = { status: 422, body: { status: 422, errorCode: '704', errorType: 'validation', message: 'request already processed or in progress' } };
      await expect(transient.authorize(authorization(), signal())).rejects.toMatchObject({ name: 'ProcessorMaybeSentError', reason: 'in-progress' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Adyen notes: where a reference lives, and what notifications told', () => {
  const notes = (reported: Record<string, unknown>[] = [], failing = false) => {
    const recorded: { reference: string; location: unknown }[] = [];
    return {
      recorded,
      notes: {
        recordReference: async (reference: string, location: unknown) => {
          if (failing) throw new Error('store down');
          recorded.push({ reference, location });
        },
        reported: async () => reported as never,
      },
    };
  };

  it('records the reference’s location with each request it sends', async () => {
    const { notes: store, recorded } = notes();
    const request = authorization();
    await new AdyenProcessor(configFor(fake), store).authorize(request, signal());
    expect(recorded).toEqual([
      { reference: request.idempotencyKey, location: { orderRef: request.orderRef, paymentRef: request.idempotencyKey, operation: 'AUTHORIZE' } },
    ]);
  });

  it('a location that cannot be written never turns Adyen’s answer into an error', async () => {
    const { notes: store } = notes([], true);
    expect(await new AdyenProcessor(configFor(fake), store).authorize(authorization(), signal())).toMatchObject({ kind: 'approved' });
  });

  it('recovers from a stored notification first, without sending anything', async () => {
    const reference = crypto.randomUUID();
    const item = { eventCode: 'AUTHORISATION', pspReference: 'PSP0000000000001', merchantReference: reference, success: 'true' };
    const before = fake.requests.length;
    const { notes: store } = notes([item]);
    expect(await new AdyenProcessor(configFor(fake), store).recover({ operation: 'AUTHORIZE', reference }, signal())).toEqual({
      kind: 'known',
      outcome: { kind: 'approved', processorReference: 'PSP0000000000001', resultCode: 'AUTHORISATION' },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('never replays an operation Adyen acknowledged: its notification decides (in progress until then)', async () => {
    const request = authorization();
    const before = fake.requests.length;
    const { notes: store } = notes();
    expect(
      await new AdyenProcessor(configFor(fake), store).recover(
        { operation: 'AUTHORIZE', reference: request.idempotencyKey, request, acknowledged: 'PSP1' },
        signal(),
      ),
    ).toEqual({ kind: 'in-progress' });
    expect(fake.requests.length).toBe(before);
  });
});
