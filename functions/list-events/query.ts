import * as z from 'zod';
import { EVENT_ID } from '../../lib/core/events/payment-event.js';

/** `?after=<event id>&limit=1..100` (default 50). */
export const eventsQuery = z
  .object({
    after: z.string().regex(EVENT_ID, 'Expected an event id').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();
