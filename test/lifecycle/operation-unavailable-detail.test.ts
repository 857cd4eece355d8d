import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../support/sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { AuthorizationUnavailableError } from '../../lib/core/errors.js';
import { OperationNotPerformedError } from '../../lib/core/ports/authorizer.js';
import { aed, authorizedWorld, capture, refund, reverse } from '../support/lifecycle.js';
import type { InvokeResult } from '../support/invoke.js';
import type { World } from '../support/endpoints.js';
import { platformToken } from '../support/tokens.js';

/**
 * SPEC §2 AUTHORIZATION_UNAVAILABLE for a capture, reversal or refund: the detail names the
 * operation (a merchant reading "the authorizer did not answer; the payment can be retried"
 * would look at the authorization), and never the acquirer's own words.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
  lifecycleDeps.settings.authorizerTimeoutMs = 10_000;
  lifecycleDeps.settings.inFlightMs = 10_000;
});

const key = () => ({ headers: { 'idempotency-key': `detail-${Math.random()}` } });
/** An acquirer that takes the operation and never answers (the call is aborted at the timeout). */
const hang = () => new Promise<never>(() => undefined);

const OPERATIONS: { noun: string; world: () => Promise<World>; send: (w: World, extra?: ReturnType<typeof key>) => Promise<InvokeResult> }[] = [
  { noun: 'capture', world: () => authorizedWorld({ amount: 1000 }), send: (w, extra) => capture(w, token, aed(400), extra) },
  { noun: 'reversal', world: () => authorizedWorld({ amount: 1000 }), send: (w, extra) => reverse(w, token, extra) },
  { noun: 'refund', world: () => authorizedWorld({ action: 'PURCHASE', amount: 1000 }), send: (w, extra) => refund(w, token, aed(400), extra) },
];

function expectNamed(response: InvokeResult, noun: string, wording: RegExp) {
  expect([response.status, response.body.code], response.raw).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
  expect(response.body.detail).toMatch(wording);
  expect(response.body.detail).toContain(noun);
  expect(response.body.detail).not.toMatch(/authorizer|authoriz|payment can be retried/i);
}

describe.each(OPERATIONS)('a $noun the acquirer does not settle', ({ noun, world, send }) => {
  it(`timed out: 502 naming the ${noun}, with Retry-After`, async () => {
    const w = await world();
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    vi.spyOn(authorizer, 'modify').mockImplementation(hang);
    const response = await send(w);
    expectNamed(response, noun, new RegExp(`did not answer the ${noun} in time`));
    expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it(`certainly not reached: 502 saying the ${noun} was not performed`, async () => {
    const w = await world();
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new OperationNotPerformedError('connection refused by acquirer-internal-host'));
    const response = await send(w);
    expectNamed(response, noun, new RegExp(`the ${noun} was not performed`));
    expect(response.raw).not.toContain('acquirer-internal-host');
  });

  it(`the same request again while the first may still land: 502 naming the earlier ${noun}`, async () => {
    const w = await world();
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    const modify = vi.spyOn(authorizer, 'modify').mockImplementation(hang);
    const k = key();
    expect((await send(w, k)).status).toBe(502);
    const again = await send(w, k);
    expectNamed(again, noun, new RegExp(`The earlier ${noun} may still reach the acquirer`));
    expect(modify).toHaveBeenCalledTimes(1);
  });

  it(`the acquirer's recovery does not answer either: 502 naming the earlier ${noun}`, async () => {
    const w = await world();
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    vi.spyOn(authorizer, 'modify').mockImplementation(hang);
    vi.spyOn(authorizer, 'recover').mockImplementation(hang);
    const k = key();
    expect((await send(w, k)).status).toBe(502);
    const again = await send(w, k);
    expectNamed(again, noun, new RegExp(`did not answer about the earlier ${noun}`));
  });
});

it('a payment’s own authorization timeout still speaks of the authorization (the default is for payments)', () => {
  expect(new AuthorizationUnavailableError().detail).toMatch(/authorizer did not answer; the payment can be retried/);
});
