import { authenticator, configRepository, orderRepository } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/http/idempotent-api-handler.js';
import { noQuery, outletParams } from '../../lib/http/params.js';
import { createOrder } from '../../lib/services/orders.js';
import { createOrderBody } from './schema.js';

/** SPEC 4.8 — create an order and its first payment. */
export const handler = idempotentApiHandler(
  {
    route: 'POST /transactions/outlets/{outletId}/orders',
    access: { kind: 'permission', permission: 'CREATE_ORDER' },
    idempotency: 'supported', // Idempotency-Key (SPEC 4.13)
    authenticator,
    params: outletParams,
    query: noQuery,
    body: createOrderBody,
  },
  async ({ params, body, principal }) => ({
    status: 201,
    body: await createOrder({ config: configRepository, orders: orderRepository }, principal, params.outletId, body),
  }),
);
