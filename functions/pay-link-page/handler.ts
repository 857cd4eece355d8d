import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { openPaymentLinkDeps } from '../../lib/composition/payment-links.js';
import { createPayPageHandler } from '../../lib/http/pay-link-page/pay-page-handler.js';

/** GET /pay/{linkRef}: a payment link's public page (SPEC 4.14). No token. */
export const handler = createPayPageHandler(openPaymentLinkDeps, { publicBaseUrl: serviceConfig.PUBLIC_BASE_URL });
