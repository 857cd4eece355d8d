import { beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken, newSessionToken } from '../../lib/core/auth/session-token.js';
import { sessionRepository } from '../../lib/composition/core.js';
import type { World } from '../support/endpoints.js';
import { seedWorld, uniqueRef } from '../support/seed.js';
import { ALL_PERMISSIONS, badTokens, platformToken, tenantToken } from '../support/tokens.js';
import { checkoutResponse } from '../support/checkout.js';
import { authorizerCalls, completeThreeDs, pay, payDirectly, strangerCres } from '../support/payments.js';
import { handler as getOrder } from '../../functions/get-order/handler.js';
import { invoke } from '../support/invoke.js';
import type { InvokeResult } from '../support/invoke.js';

/**
 * SPEC §1 for the payment endpoints (4.3, 4.4, 4.10): CREATE_AUTHORIZATION, outlet in scope.
 * Payments are stateful, so every call that should get through gets a fresh order; "got
 * through" means the request reached the use case (not 401/403/404).
 */
type Call = (world: World, token: string) => Promise<InvokeResult>;
const directBody = {
  token: { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2029' },
  dynamicData: { dynamicDataValue: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' },
  eci: '05', // fully authenticated: no 3DS step-up under the default risk-based policy
};
const cres = strangerCres();

/** `sessionTokens`: SPEC §1 — a hosted-session token (the shopper's browser) may pay with 4.3 and finish 3DS, never 4.4. */
const endpoints: { name: string; call: Call; passed: (r: InvokeResult) => boolean; sessionTokens: 'allowed' | 'refused' }[] = [
  {
    name: '4.3 click-to-pay',
    call: async (w, t) => pay(w, t, await checkoutResponse()),
    passed: (r) => r.status === 200 && r.body.state === 'AUTHORISED',
    sessionTokens: 'allowed',
  },
  {
    name: '4.4 direct',
    call: (w, t) => payDirectly(w, t, directBody),
    passed: (r) => r.status === 200 && r.body.state === 'AUTHORISED',
    sessionTokens: 'refused',
  },
  // A fresh payment is STARTED, so 4.10 answers 409: the request passed authentication and scope.
  {
    name: '4.10 3ds',
    call: (w, t) => completeThreeDs(w, t, cres),
    passed: (r) => r.status === 409 && r.body.code === 'PAYMENT_STATE_CONFLICT',
    sessionTokens: 'allowed',
  },
];

const readOrder = (w: World, token: string) =>
  invoke(getOrder, { path: `/transactions/outlets/${w.outletId}/orders/${w.orderRef}`, pathParameters: { outletId: w.outletId, orderRef: w.orderRef }, token });

let bad: Record<string, string>;
beforeAll(async () => {
  bad = await badTokens();
});

const fresh = () => seedWorld({}, { directWallet: true });

describe.each(endpoints)('$name', ({ call, passed, sessionTokens }) => {
  it('gets through with a platform token, a tenant token, and merchant- or outlet-narrowed tokens of the owner', async () => {
    const w1 = await fresh();
    expect(passed(await call(w1, await platformToken()))).toBe(true);
    const w2 = await fresh();
    expect(passed(await call(w2, await tenantToken({ tenantRef: w2.tenantRef, permissions: ['CREATE_AUTHORIZATION'] })))).toBe(true);
    const w3 = await fresh();
    expect(passed(await call(w3, await tenantToken({ tenantRef: w3.tenantRef, merchantRef: w3.merchantRef })))).toBe(true);
    const w4 = await fresh();
    expect(passed(await call(w4, await tenantToken({ tenantRef: w4.tenantRef, outletIds: [w4.outletId] })))).toBe(true);
  });

  it('answers 401 without a token and for every bad token', async () => {
    const world = await fresh();
    for (const token of ['', ...Object.values(bad)]) {
      const response = await call(world, token);
      expect(response.status, token.slice(0, 30)).toBe(401);
      expect(response.headers['WWW-Authenticate']).toBe('Bearer');
    }
  });

  it('answers 403 without CREATE_AUTHORIZATION', async () => {
    const world = await fresh();
    const response = await call(world, await platformToken(ALL_PERMISSIONS.filter((p) => p !== 'CREATE_AUTHORIZATION')));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('PERMISSION_DENIED');
  });

  it('answers 404 for another tenant, another merchant, other outlets, and an unknown payment', async () => {
    const world = await fresh();
    for (const token of [
      await tenantToken({ tenantRef: uniqueRef('t') }),
      await tenantToken({ tenantRef: world.tenantRef, merchantRef: uniqueRef('m') }),
      await tenantToken({ tenantRef: world.tenantRef, outletIds: [world.otherOutletId] }),
    ]) {
      expect((await call(world, token)).status).toBe(404);
    }
    expect((await call({ ...world, paymentRef: uniqueRef('p') }, await platformToken())).status).toBe(404);
    expect((await call({ ...world, outletId: world.otherOutletId }, await platformToken())).status).toBe(404);
  });

  it(
    sessionTokens === 'allowed'
      ? 'a hosted session gets through for its own order only; an expired one is a 401'
      : 'a hosted session is refused with 403 PERMISSION_DENIED, even for its own order; an expired one is a 401',
    async () => {
      const [own, other] = [await fresh(), await fresh()];
      const token = newSessionToken();
      const session = {
        orderRef: own.orderRef,
        outletId: own.outletId,
        merchantRef: own.merchantRef,
        tenantRef: own.tenantRef,
        createdAt: new Date().toISOString(),
      };
      await sessionRepository.create({ ...session, tokenHash: hashSessionToken(token), expiresAt: Math.floor(Date.now() / 1000) + 600 });
      if (sessionTokens === 'allowed') {
        expect((await call(other, token)).status).toBe(404);
        expect(passed(await call(own, token))).toBe(true);
      } else {
        for (const world of [own, other]) {
          const refused = await call(world, token);
          expect(refused.status).toBe(403);
          expect(refused.body.code).toBe('PERMISSION_DENIED');
          expect(authorizerCalls(world.paymentRef)).toBe(0);
          // Refused before the use case: the payment is untouched and an access token can still pay it.
          const order = await readOrder(world, await platformToken());
          expect(order.body.payments[0].state).toBe('STARTED');
        }
        expect(passed(await call(own, await platformToken()))).toBe(true);
      }
      const expired = newSessionToken();
      await sessionRepository.create({ ...session, tokenHash: hashSessionToken(expired), expiresAt: Math.floor(Date.now() / 1000) - 1 });
      expect((await call(await fresh(), expired)).status).toBe(401);
    },
  );
});
