import { adyenNotificationDeps } from '../../lib/composition/processor-notifications.js';
import { createNotificationHandler } from '../../lib/http/processor-notifications/notification-handler.js';

/** SPEC 4.16 — Adyen's standard notifications (HMAC-verified per item, applied once, answered `[accepted]`). No token. */
export const handler = createNotificationHandler(adyenNotificationDeps, { route: 'POST /processors/adyen/notifications' });
