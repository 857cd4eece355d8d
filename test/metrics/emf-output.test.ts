import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutResponse } from '../support/checkout.js';
import { pay } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * Issue 11 item 3: the EMF lines reach stdout (the function's log, CloudWatch's input), are
 * well-formed, and carry no card data: only closed-set dimension values and numbers.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => vi.restoreAllMocks());

function captureStdout() {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return write(chunk as string, ...(rest as []));
  }) as typeof process.stdout.write);
  return lines;
}

describe('EMF on stdout', () => {
  it('one payment writes EMF JSON lines in the ClickToPay namespace, with no card data', async () => {
    const world = await seedWorld();
    const sdkResult = await checkoutResponse();
    const lines = captureStdout();
    const response = await pay(world, token, sdkResult);
    expect(response.body.state).toBe('AUTHORISED');

    const emf = lines.filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line));
    const authorizations = emf.find((entry) => entry.Authorizations !== undefined);
    expect(authorizations, lines.join('\n')).toBeDefined();
    const [directive] = authorizations._aws.CloudWatchMetrics;
    expect(directive.Namespace).toBe('ClickToPay');
    expect(directive.Dimensions[0].sort()).toEqual(['brand', 'environment', 'outcome', 'service']);
    expect(directive.Metrics).toEqual([{ Name: 'Authorizations', Unit: 'Count' }]);
    expect(authorizations).toMatchObject({ service: 'click-to-pay', environment: 'sandbox', brand: 'VISA', outcome: 'approved', Authorizations: 1 });
    expect(emf.some((entry) => entry.Latency !== undefined && entry.route.endsWith('/click-to-pay'))).toBe(true);

    for (const entry of emf) expect(typeof entry._aws.Timestamp).toBe('number');
    const written = emf.map(({ _aws: { Timestamp: _at, ...directives }, ...rest }) => JSON.stringify({ directives, ...rest })).join('\n');
    expect(written).not.toContain('4895370012003478'); // the sandbox card's token
    expect(written).not.toContain('V0010013819219553391925592151'); // its payment account reference
    expect(written).not.toMatch(/\d{13,19}/); // no card-like number once the epoch-ms timestamp is set aside
    expect(written).not.toMatch(/cryptogram|"eci"/i);
    for (const id of [world.paymentRef, world.orderRef, world.outletId, world.merchantRef]) expect(written).not.toContain(id); // ids are log fields, never dimensions
  });
});
