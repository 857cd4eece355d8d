import * as z from 'zod';
import { authenticator } from '../../lib/composition/core.js';
import { merchantEventsDeps } from '../../lib/composition/merchant-events.js';
import { EVENT_ID } from '../../lib/core/events/payment-event.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { noQuery, ref } from '../../lib/http/params.js';
import { redeliverMerchantEvent } from '../../lib/core/webhooks/merchant-events.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.15 — send an event again (202: delivery happens within seconds, signed as usual). */
export const handler = idempotentApiHandler(
  routes.redeliverEvent,
  {
    authenticator,
    params: z.object({ merchantRef: ref, eventId: z.string().regex(EVENT_ID, 'Expected an event id') }),
    query: noQuery,
  },
  async ({ params, principal }) => ({
    status: 202,
    body: await redeliverMerchantEvent(merchantEventsDeps, principal, params.merchantRef, params.eventId),
  }),
);
