import { createHash, createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it, vi } from 'vitest';
import { handler as sandboxSrc } from '../../functions/sandbox-src/handler.js';
import { parseNetworkConfirmationsConfig } from '../../lib/composition/config/network-confirmations-config.js';
import { Logger } from '../../lib/core/ports/logger.js';
import { ssmCredentials } from '../../lib/adapters/network/mastercard/credentials.js';
import { CHECKOUT_EVENT_CODES, majorUnits, mastercardConfirmationBody } from '../../lib/adapters/network/mastercard/confirmation-body.js';
import { MastercardConfirmationsClient } from '../../lib/adapters/network/mastercard/confirmations-client.js';
import type { NetworkConfirmation } from '../../lib/core/ports/network-client.js';
import { authorizationHeader, baseUri, parameterString, signatureBaseString } from '../../lib/adapters/network/mastercard/oauth1.js';
import { invoke } from '../support/invoke.js';
import { networkRecord } from '../support/sandbox-network-server.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const confirmation: NetworkConfirmation = {
  id: 'cnf_0123456789abcdef0123456789abcdef',
  network: 'mastercard',
  outcome: 'AUTHORISED',
  srcCorrelationId: 'a1b2c3d4.5e6f-7a8b',
  srciTransactionId: 'srci-1',
  paymentRef: 'p-1',
  amount: { currencyCode: 'AED', value: 1050 },
  occurredAt: '2026-11-23T20:00:00.000Z',
  authorizationCode: 'A1B2C3',
};

describe('OAuth 1.0a signing (Mastercard’s reference signer)', () => {
  it('builds the signature base string of Mastercard’s published test vector', () => {
    // github.com/Mastercard/oauth1-signer-nodejs test/OAuth-getSignatureBaseString.test.js
    const params =
      'Format=JSON&Format=XML&MerchantId=GOOGLE%20LTD%20ADWORDS%20%28CC%40GOOGLE.COM%29&Type=ExactMatch&oauth_consumer_key=aaa!aaa&oauth_nonce=uTeLPs6K&oauth_signature_method=RSA-SHA256&oauth_timestamp=1524771555&oauth_version=1.0';
    expect(signatureBaseString('GET', 'https://sandbox.api.mastercard.com/merchantid/v1/merchantid', params)).toBe(
      'GET&https%3A%2F%2Fsandbox.api.mastercard.com%2Fmerchantid%2Fv1%2Fmerchantid&Format%3DJSON%26Format%3DXML%26MerchantId%3DGOOGLE%2520LTD%2520ADWORDS%2520%2528CC%2540GOOGLE.COM%2529%26Type%3DExactMatch%26oauth_consumer_key%3Daaa%21aaa%26oauth_nonce%3DuTeLPs6K%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1524771555%26oauth_version%3D1.0',
    );
    expect(
      parameterString([
        ['b', '2'],
        ['a', '2'],
        ['a', '1'],
      ]),
    ).toBe('a=1&a=2&b=2');
    expect(baseUri(new URL('HTTPS://API.Mastercard.com:443/srci/api/checkout/confirmations?x=1#f'))).toBe(
      'https://api.mastercard.com/srci/api/checkout/confirmations',
    );
  });

  it('signs with RSA-SHA256 over the base string, with the body hash, verifiable with the public key', () => {
    const url = 'https://sandbox.api.mastercard.com/srci/api/checkout/confirmations';
    const body = '{"a":1}';
    const header = authorizationHeader('POST', url, body, { consumerKey: 'ck!123', signingKey: privateKey }, { nonce: 'n0nce', timestamp: 1700000000 });
    expect(header.startsWith('OAuth ')).toBe(true);
    const fields = Object.fromEntries(
      header
        .slice(6)
        .split(',')
        .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 2, -1)]),
    );
    const bodyHash = createHash('sha256').update(body).digest('base64');
    expect(fields).toMatchObject({
      oauth_body_hash: bodyHash,
      oauth_consumer_key: 'ck!123',
      oauth_nonce: 'n0nce',
      oauth_signature_method: 'RSA-SHA256',
      oauth_timestamp: '1700000000',
      oauth_version: '1.0',
    });
    const base = signatureBaseString(
      'POST',
      url,
      `oauth_body_hash=${bodyHash}&oauth_consumer_key=ck!123&oauth_nonce=n0nce&oauth_signature_method=RSA-SHA256&oauth_timestamp=1700000000&oauth_version=1.0`,
    );
    expect(createVerify('RSA-SHA256').update(base).verify(publicKey, decodeURIComponent(fields.oauth_signature!), 'base64')).toBe(true);
    // A different body is a different signature.
    expect(authorizationHeader('POST', url, '{"a":2}', { consumerKey: 'ck!123', signingKey: privateKey }, { nonce: 'n0nce', timestamp: 1700000000 })).not.toBe(
      header,
    );
  });
});

describe('Mastercard’s confirmation body', () => {
  it('maps each outcome to EMVCo’s codes, amounts in major units, UNAVLB for an unknown network trace id', () => {
    expect(mastercardConfirmationBody(confirmation, 'client-1')).toEqual({
      srcClientId: 'client-1',
      srcCorrelationId: 'a1b2c3d4.5e6f-7a8b',
      srciTransactionId: 'srci-1',
      confirmationData: {
        checkoutEventType: '01',
        checkoutEventStatus: '01',
        confirmationStatus: '01',
        confirmationReason: 'AUTHORISED',
        confirmationTimestamp: '2026-11-23T20:00:00.000Z',
        networkAuthorizationCode: 'A1B2C3',
        networkTransactionIdentifier: 'UNAVLB',
        transactionAmount: { transactionAmount: '10.50', transactionCurrencyCode: 'AED' },
      },
    });
    const refund = mastercardConfirmationBody({ ...confirmation, outcome: 'REFUNDED' }, 'client-1').confirmationData;
    expect(refund.networkTransactionIdentifier).toBeUndefined(); // only for checkoutEventType 01
    expect(Object.fromEntries(Object.entries(CHECKOUT_EVENT_CODES).map(([outcome, codes]) => [outcome, codes.checkoutEventType]))).toEqual({
      AUTHORISED: '01',
      DECLINED: '01',
      CAPTURED: '02',
      REFUNDED: '03',
      REVERSED: '04',
    });
    expect(CHECKOUT_EVENT_CODES.DECLINED.confirmationStatus).toBe('02');
  });

  it('writes amounts with the currency’s ISO 4217 exponent', () => {
    expect([
      majorUnits(1050, 'AED'),
      majorUnits(5, 'USD'),
      majorUnits(0, 'EUR'),
      majorUnits(1050, 'JPY'),
      majorUnits(1050, 'BHD'),
      majorUnits(123456789, 'AED'),
    ]).toEqual(['10.50', '0.05', '0.00', '1050', '1.050', '1234567.89']);
  });
});

describe('the production adapter (MastercardConfirmationsClient)', () => {
  async function receiver(status: number) {
    const seen: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body, url: req.url ?? '' });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/srci/api/checkout/confirmations`,
      seen,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  const logger = new Logger({}, 'error', () => undefined);

  it('POSTs the body signed for that exact URL and body, with the client id header; 204 is ok', async () => {
    const server = await receiver(204);
    try {
      const client = new MastercardConfirmationsClient(
        { url: server.url, srcClientId: 'client-1' },
        async () => ({ consumerKey: 'ck!1', signingKey: privateKey }),
        logger,
      );
      expect(await client.confirm(confirmation)).toMatchObject({ ok: true, status: 204 });
      const [request] = server.seen;
      expect(JSON.parse(request!.body)).toEqual(mastercardConfirmationBody(confirmation, 'client-1'));
      expect(request!.headers['x-openapi-clientid']).toBe('client-1');
      const header = request!.headers.authorization!;
      const hash = /oauth_body_hash="([^"]+)"/.exec(header)![1];
      expect(hash).toBe(createHash('sha256').update(request!.body).digest('base64'));
      const nonce = /oauth_nonce="([^"]+)"/.exec(header)![1];
      const timestamp = /oauth_timestamp="([^"]+)"/.exec(header)![1];
      const signature = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(header)![1]!);
      const base = signatureBaseString(
        'POST',
        server.url,
        `oauth_body_hash=${hash}&oauth_consumer_key=ck!1&oauth_nonce=${nonce}&oauth_signature_method=RSA-SHA256&oauth_timestamp=${timestamp}&oauth_version=1.0`,
      );
      expect(createVerify('RSA-SHA256').update(base).verify(publicKey, signature, 'base64')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('reports a 5xx and unavailable credentials as failed attempts, never throws', async () => {
    const server = await receiver(503);
    try {
      const ok = new MastercardConfirmationsClient({ url: server.url, srcClientId: 'c' }, async () => ({ consumerKey: 'k', signingKey: privateKey }), logger);
      expect(await ok.confirm(confirmation)).toMatchObject({ ok: false, status: 503 });
      const noCredentials = new MastercardConfirmationsClient(
        { url: server.url, srcClientId: 'c' },
        async () => Promise.reject(new Error('AccessDenied')),
        logger,
      );
      expect(await noCredentials.confirm(confirmation)).toMatchObject({ ok: false, error: 'credentials-unavailable' });
      expect(server.seen).toHaveLength(1);
      const unreachable = new MastercardConfirmationsClient(
        { url: 'http://127.0.0.1:1/x', srcClientId: 'c' },
        async () => ({ consumerKey: 'k', signingKey: privateKey }),
        logger,
      );
      expect(await unreachable.confirm(confirmation)).toMatchObject({ ok: false, error: 'unreachable' });
    } finally {
      await server.close();
    }
  });
});

describe('credentials from SSM by ARN', () => {
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const ARN = 'arn:aws:ssm:eu-west-1:123456789012:parameter/c2p/mastercard';

  it('reads the SecureString once (decrypted), and again only after a failure', async () => {
    const send = vi
      .fn()
      .mockRejectedValueOnce(new Error('throttled'))
      .mockResolvedValue({ Parameter: { Value: JSON.stringify({ consumerKey: 'ck!1', signingKeyPem: pem }) } });
    const credentials = ssmCredentials({ send } as never, ARN);
    await expect(credentials()).rejects.toThrow('throttled');
    const loaded = await credentials();
    expect(loaded.consumerKey).toBe('ck!1');
    expect(loaded.signingKey.asymmetricKeyType).toBe('rsa');
    await credentials();
    expect(send).toHaveBeenCalledTimes(2);
    const command = send.mock.calls[1]![0] as GetParameterCommand;
    expect(command).toBeInstanceOf(GetParameterCommand);
    expect(command.input).toEqual({ Name: ARN, WithDecryption: true });
  });

  it('refuses a malformed parameter without quoting it', async () => {
    for (const value of ['not json SECRET', JSON.stringify({ consumerKey: 'SECRET' })]) {
      const credentials = ssmCredentials({ send: async () => ({ Parameter: { Value: value } }) } as never, ARN);
      const error = await credentials().catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toContain('SECRET');
    }
  });
});

describe('configuration (MASTERCARD_*, SANDBOX_CONFIRMATIONS_URL)', () => {
  const full = {
    MASTERCARD_CONFIRMATIONS_URL: 'https://api.mastercard.com/srci/api/checkout/confirmations',
    MASTERCARD_SRC_CLIENT_ID: 'client-1',
    MASTERCARD_API_CREDENTIALS_PARAMETER_ARN: 'arn:aws:ssm:eu-west-1:123456789012:parameter/c2p/mastercard',
  };

  it('takes all three Mastercard settings or none, and derives the sandbox endpoint from PUBLIC_BASE_URL', () => {
    expect(parseNetworkConfirmationsConfig(full)).toMatchObject(full);
    expect(parseNetworkConfirmationsConfig({})).toEqual({ SANDBOX_CONFIRMATIONS_URL: undefined });
    expect(parseNetworkConfirmationsConfig({ PUBLIC_BASE_URL: 'https://pay.example.com/' }).SANDBOX_CONFIRMATIONS_URL).toBe(
      'https://pay.example.com/sandbox/src/confirmations',
    );
    expect(
      parseNetworkConfirmationsConfig({ PUBLIC_BASE_URL: 'https://pay.example.com', SANDBOX_CONFIRMATIONS_URL: 'http://127.0.0.1:9/c' })
        .SANDBOX_CONFIRMATIONS_URL,
    ).toBe('http://127.0.0.1:9/c');
    const { MASTERCARD_SRC_CLIENT_ID: _omitted, ...partial } = full;
    expect(() => parseNetworkConfirmationsConfig(partial)).toThrow(/Invalid configuration: check MASTERCARD_CONFIRMATIONS_URL/);
  });

  it('refuses an http Mastercard endpoint or a credentials value that is not an SSM parameter ARN, naming the variable only', () => {
    expect(() => parseNetworkConfirmationsConfig({ ...full, MASTERCARD_CONFIRMATIONS_URL: 'http://api.mastercard.com/x' })).toThrow(
      /MASTERCARD_CONFIRMATIONS_URL/,
    );
    const error = (() => {
      try {
        parseNetworkConfirmationsConfig({ ...full, MASTERCARD_API_CREDENTIALS_PARAMETER_ARN: '{"consumerKey":"SECRET"}' });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toMatch(/MASTERCARD_API_CREDENTIALS_PARAMETER_ARN/);
    expect(error?.message).not.toContain('SECRET');
  });
});

describe('the sandbox network’s confirmations endpoint', () => {
  const body = mastercardConfirmationBody({ ...confirmation, srcCorrelationId: `unit-${Date.now()}` }, 'sandbox-src-initiator');
  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    invoke(sandboxSrc, { method: 'POST', path: '/sandbox/src/confirmations', body: payload, headers });

  it('records each receipt, answers 204 without a body, and lists each confirmation id once', async () => {
    const first = await post(body, { 'idempotency-key': 'cnf_a' });
    expect(first.status).toBe(204);
    expect(first.raw).toBe('');
    expect((await post(body, { 'idempotency-key': 'cnf_a' })).status).toBe(204);
    expect((await post(body, { 'idempotency-key': 'cnf_b' })).status).toBe(204);
    const record = await networkRecord(body.srcCorrelationId);
    expect(record.receipts).toBe(3);
    expect(record.confirmations.map((c) => c.confirmationId)).toEqual(['cnf_a', 'cnf_b']);
    expect(record.confirmations[0]!.body).toEqual(body);
  });

  it('refuses a confirmation without an Idempotency-Key or with an invalid body (the network’s own error format)', async () => {
    const missing = await post(body);
    expect(missing.status).toBe(400);
    expect(missing.body.error.reason).toBe('INVALID_REQUEST');
    for (const bad of [
      { ...body, srcCorrelationId: '' },
      { ...body, confirmationData: { ...body.confirmationData, checkoutEventType: '09' } },
      { ...body, confirmationData: { ...body.confirmationData, transactionAmount: { transactionAmount: '10,50', transactionCurrencyCode: 'AED' } } },
    ]) {
      const response = await post(bad, { 'idempotency-key': 'cnf_x' });
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await networkRecord(body.srcCorrelationId)).confirmations.map((c) => c.confirmationId)).not.toContain('cnf_x');
    expect((await invoke(sandboxSrc, { method: 'POST', path: '/sandbox/src/confirmations/search', body: {} })).status).toBe(400);
  });
});

describe('postConfirmation (the HTTP call both network clients make)', () => {
  it('gives up at the invocation’s deadline, not only at its own timeout (SPEC §6)', async () => {
    const { postConfirmation } = await import('../../lib/adapters/network/post-confirmation.js');
    const { runWithDeadline } = await import('../../lib/core/deadline.js');
    const server = createServer(() => undefined); // takes the request, never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/confirmations`;
      const started = Date.now();
      const result = await runWithDeadline({ signal: AbortSignal.timeout(200), at: Date.now() + 200 }, () => postConfirmation(url, '{}', {}, 10_000));
      expect(result).toMatchObject({ ok: false, error: 'timeout' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
