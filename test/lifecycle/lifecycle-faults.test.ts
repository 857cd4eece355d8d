import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../../lib/composition/acquirers.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { OperationNotPerformedError } from '../../lib/core/ports/authorizer.js';
import { acquirerRecord, aed, authorizedWorld, capture, readOrderAs, refund } from '../support/lifecycle.js';
import { sessionTokenFor } from '../support/sessions.js';
import { platformToken, tenantToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
  lifecycleDeps.settings.authorizerTimeoutMs = 10_000;
  lifecycleDeps.settings.inFlightMs = 10_000;
});

const key = (name: string) => ({ headers: { 'idempotency-key': `${name}-${Math.random()}` } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const onlyCapture = async (w: Parameters<typeof readOrderAs>[0]) => (await readOrderAs(w, token)).body.payments[0];

describe('lifecycle operations under acquirer faults: at most once, nothing lost', () => {
  it('no answer (amount ending 99): 502, the capture stays PENDING with its amount reserved; never re-sent; released once it cannot land', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    lifecycleDeps.settings.inFlightMs = 1_200;
    const k = key('timeout');
    const first = await capture(w, token, aed(199), k);
    expect([first.status, first.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect(Number(first.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    const pending = await onlyCapture(w);
    expect(pending.captures).toMatchObject([{ amount: { value: 199 }, state: 'PENDING' }]);
    expect((await capture(w, token, aed(802))).body.code).toBe('AMOUNT_EXCEEDS_AVAILABLE'); // 199 is held
    const modify = vi.spyOn(authorizer, 'modify');
    const early = await capture(w, token, aed(199), k); // same key, within the window: asked, not re-sent
    expect(early.status).toBe(502);
    await sleep(1_400);
    const late = await capture(w, token, aed(199), k);
    expect(late.status).toBe(201);
    expect(late.body.captures).toMatchObject([{ state: 'FAILED', failure: { code: 'NOT_PERFORMED' } }]);
    expect(modify).not.toHaveBeenCalled();
    expect(await acquirerRecord(pending.captures[0].captureRef)).toBeUndefined();
    expect((await capture(w, token, aed(1000))).body.state).toBe('CAPTURED'); // the reservation came back
  });

  it('an answer lost after the acquirer captured: the retry with the same Idempotency-Key records it from lookup, sent once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const real = authorizer.modify.bind(authorizer);
    vi.spyOn(authorizer, 'modify').mockImplementationOnce(async (request, signal) => {
      await real(request, signal);
      throw new Error('socket hang up');
    });
    const k = key('lost');
    const first = await capture(w, token, aed(400), k);
    expect(first.status).toBe(502);
    const again = await capture(w, token, aed(400), k);
    expect(again.status, again.raw).toBe(201);
    expect(again.body).toMatchObject({ state: 'PARTIALLY_CAPTURED', capturedAmount: { value: 400 }, captures: [{ state: 'SUCCEEDED' }] });
    expect(await acquirerRecord(again.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
  });

  it('a pending operation nobody comes back for is settled from lookup by the next operation on the payment', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 100;
    lifecycleDeps.settings.inFlightMs = 100;
    const w = await authorizedWorld({ amount: 1000 });
    const real = authorizer.modify.bind(authorizer);
    vi.spyOn(authorizer, 'modify').mockImplementationOnce(async (request, signal) => {
      await real(request, signal);
      throw new Error('connection reset');
    });
    expect((await capture(w, token, aed(300))).status).toBe(502);
    await sleep(250);
    const next = await capture(w, token, aed(100));
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ capturedAmount: { value: 400 }, captures: [{ state: 'SUCCEEDED' }, { state: 'SUCCEEDED' }] });
  });

  it('an acquirer certainly not reached: 502, the capture FAILED and the amount free again at once', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(authorizer, 'modify').mockRejectedValueOnce(new OperationNotPerformedError('refused before processing'));
    const failed = await capture(w, token, aed(1000));
    expect([failed.status, failed.body.code]).toEqual([502, 'AUTHORIZATION_UNAVAILABLE']);
    expect((await onlyCapture(w)).captures).toMatchObject([{ state: 'FAILED' }]);
    expect((await capture(w, token, aed(1000))).body.state).toBe('CAPTURED');
  });

  it('a declined refund: 201 with the refund FAILED, nothing refunded, the amount refundable again', async () => {
    const w = await authorizedWorld({ action: 'PURCHASE', amount: 500 });
    vi.spyOn(authorizer, 'modify').mockResolvedValueOnce({ approved: false, declineCode: 'REFUND_NOT_ALLOWED', reason: 'Refused by issuer' });
    const declined = await refund(w, token, aed(500));
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({ state: 'CAPTURED', refundedAmount: { value: 0 }, refunds: [{ state: 'FAILED', failure: { code: 'REFUND_NOT_ALLOWED' } }] });
    expect((await refund(w, token, aed(500))).body.state).toBe('REFUNDED');
  });

  it('the write after the approval fails (DynamoDB): 503, and the retry records the approval from lookup', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    vi.spyOn(lifecycleDeps.operations, 'succeed').mockRejectedValueOnce(new DependencyUnavailableError());
    const k = key('write');
    const first = await capture(w, token, aed(250), k);
    expect([first.status, first.body.code]).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    const again = await capture(w, token, aed(250), k);
    expect(again.body).toMatchObject({ capturedAmount: { value: 250 }, captures: [{ state: 'SUCCEEDED' }] });
    expect(await acquirerRecord(again.body.captures[0].captureRef)).toMatchObject({ calls: 1 });
  });
});

describe('lifecycle access (SPEC §1)', () => {
  it('session tokens 403; missing permission 403; another tenant, outlet or unknown payment 404', async () => {
    const w = await authorizedWorld();
    const session = await sessionTokenFor(w);
    expect((await capture(w, session, aed(1))).body.code).toBe('PERMISSION_DENIED');
    const noCapture = await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_REFUND', 'CREATE_REVERSAL'] });
    expect((await capture(w, noCapture, aed(1))).body.code).toBe('PERMISSION_DENIED');
    expect((await refund(w, await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_CAPTURE'] }), aed(1))).body.code).toBe('PERMISSION_DENIED');
    const stranger = await tenantToken({ tenantRef: 'another-tenant', permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, stranger, aed(1))).status).toBe(404);
    const otherOutlet = await tenantToken({ tenantRef: w.tenantRef, outletIds: [w.otherOutletId], permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, otherOutlet, aed(1))).status).toBe(404);
    expect((await capture({ ...w, paymentRef: 'no-such-payment' }, token, aed(1))).status).toBe(404);
    const own = await tenantToken({ tenantRef: w.tenantRef, permissions: ['CREATE_CAPTURE'] });
    expect((await capture(w, own, aed(1))).status).toBe(201);
  });
});
