import { beforeAll, describe, expect, it } from 'vitest';
import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { handler as payDirect } from '../../functions/pay-direct/handler.js';
import { handler as complete3ds } from '../../functions/complete-3ds/handler.js';
import { ENDPOINTS, type World } from '../support/endpoints.js';
import { invoke, type InvokeOptions } from '../support/invoke.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/** SPEC §2's body rules hold on every endpoint, not just the one the middleware was written for. */
type Handler = (event: any, context: any) => Promise<unknown>;
const paymentPath = (w: World, tail: string) => `/transactions/outlets/${w.outletId}/orders/${w.orderRef}/payments/${w.paymentRef}/${tail}`;
const paymentParams = (w: World) => ({ outletId: w.outletId, orderRef: w.orderRef, paymentRef: w.paymentRef });

const all: { name: string; load: () => Promise<{ handler: Handler }>; request: (w: World) => InvokeOptions; takesBody: boolean }[] = [
  ...ENDPOINTS.map((e) => ({ name: e.name, load: e.load, request: e.request, takesBody: e.request({} as World).body !== undefined })),
  {
    name: '4.3 click-to-pay',
    load: async () => ({ handler: payClickToPay }),
    request: (w) => ({
      method: 'POST',
      path: paymentPath(w, 'click-to-pay'),
      pathParameters: paymentParams(w),
      body: { checkoutResponse: { actionCode: 'SUCCESS', checkoutResponse: 'a.b.c' } },
    }),
    takesBody: true,
  },
  {
    name: '4.4 direct',
    load: async () => ({ handler: payDirect }),
    request: (w) => ({ method: 'POST', path: paymentPath(w, 'click-to-pay/direct'), pathParameters: paymentParams(w), body: {} }),
    takesBody: true,
  },
  {
    name: '4.10 3ds',
    load: async () => ({ handler: complete3ds }),
    request: (w) => ({ method: 'POST', path: paymentPath(w, '3ds'), pathParameters: paymentParams(w), body: { cres: 'x' } }),
    takesBody: true,
  },
];

let world: World;
let token: string;
beforeAll(async () => {
  world = await seedWorld();
  token = await platformToken();
});

describe.each(all)('$name', ({ load, request, takesBody }) => {
  const send = async (body: unknown, contentType?: string | null) => {
    const { handler } = await load();
    return invoke(handler, { ...request(world), token, body, ...(contentType === undefined ? {} : { contentType }) });
  };

  it('a body over 64 KiB → 413', async () => {
    const response = await send(JSON.stringify({ pad: 'x'.repeat(66_000) }));
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body that is not application/json → 415', async () => {
    const response = await send('a=b', 'application/x-www-form-urlencoded');
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it(takesBody ? 'malformed JSON → 400' : 'a body where none belongs → 400', async () => {
    const response = await send(takesBody ? '{"oops":' : { unexpected: true });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
  });
});
