import { describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { SandboxAuthorizer } from '../../lib/adapters/sandbox/sandbox-authorizer.js';
import { uniqueRef } from '../support/seed.js';

/**
 * SPEC §5's sandbox acquirer keeps one record per operation: the first call's outcome wins, and
 * every call is counted (SPEC §3 "at most once" is checked against it). Against the local engine.
 */
const acquirer = new SandboxAuthorizer(documentClient, process.env.SANDBOX_TABLE!);
const signal = new AbortController().signal;
const request = (paymentRef: string, value: number) => ({
  idempotencyKey: paymentRef,
  orderRef: 'o-1',
  credential: { kind: 'token', number: '4895370012003478' } as never,
  brand: 'VISA',
  eci: '05',
  amount: { currencyCode: 'AED', value },
  capture: false,
  payerIp: undefined,
});

describe('sandbox acquirer record', () => {
  it('answers a repeated idempotency key with the first outcome and counts both calls', async () => {
    const ref = uniqueRef('p');
    const first = await acquirer.authorize(request(ref, 1000), signal);
    const again = await acquirer.authorize(request(ref, 1051), signal); // would decline if it were new
    expect(first).toMatchObject({ kind: 'approved', processorReference: ref, resultCode: '00' });
    expect(again).toEqual(first);
    expect(await acquirer.operation(ref)).toMatchObject({
      idempotencyKey: ref,
      operation: 'AUTHORIZE',
      outcome: first,
      amount: { value: 1000 },
      brand: 'VISA',
      paymentRef: ref,
      calls: 2,
    });
    expect(await acquirer.recover({ operation: 'AUTHORIZE', reference: ref }, signal)).toEqual({ kind: 'known', outcome: first });
    expect(await acquirer.recover({ operation: 'AUTHORIZE', reference: uniqueRef('p') }, signal)).toEqual({ kind: 'absent' });
  });
});
