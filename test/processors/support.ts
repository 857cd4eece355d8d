import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import type { ProcessorAuthorizationRequest, ProcessorModificationRequest, ThreeDsResult } from '../../lib/adapters/processors/port.js';

/** Test network tokens (never real accounts) and a base64 cryptogram, as the SRC payload carries them. */
export const VISA_TOKEN = '4895370000000010';
export const MASTERCARD_TOKEN = '5204730000000012';
export const CRYPTOGRAM = 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=';
export const CAVV = 'AAABBEg0VhI0VniQEjRWAAAAAAA=';

export function authorization(overrides: Partial<ProcessorAuthorizationRequest> = {}): ProcessorAuthorizationRequest {
  const brand = overrides.brand ?? 'VISA';
  return {
    idempotencyKey: crypto.randomUUID(),
    credential: {
      kind: 'token',
      number: brand === 'MASTERCARD' ? MASTERCARD_TOKEN : VISA_TOKEN,
      expiryMonth: '12',
      expiryYear: '2030',
      cryptogram: CRYPTOGRAM,
    },
    brand,
    eci: brand === 'MASTERCARD' ? '02' : '05',
    amount: { currencyCode: 'AED', value: 1000 },
    capture: false,
    payerIp: '203.0.113.7',
    ...overrides,
  };
}

export function modification(
  kind: ProcessorModificationRequest['kind'],
  processorReference: string,
  value: number,
  paymentRef = crypto.randomUUID(),
): ProcessorModificationRequest {
  return { idempotencyKey: crypto.randomUUID(), kind, paymentRef, processorReference, amount: { currencyCode: 'AED', value } };
}

export const frictionless: ThreeDsResult = {
  authenticationValue: CAVV,
  eci: '05',
  dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  protocolVersion: '2.2.0',
  transStatus: 'Y',
  aresTransStatus: 'Y',
};
export const challenged: ThreeDsResult = { ...frictionless, aresTransStatus: 'C', challengeTransStatus: 'Y' };

export const signal = () => new AbortController().signal;

/** Everything an error would show in a log line: message, name, fields and the cause chain. */
export const everythingIn = (error: unknown) => inspect(error, { depth: 8, showHidden: false });

/** A stand-in for the service's notification endpoint: records bodies, answers [accepted]. */
export async function startNotificationSink(): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('[accepted]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/processors/adyen/notifications`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
