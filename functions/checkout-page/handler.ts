import { checkoutPageDeps } from '../../lib/composition/checkout-page.js';
import { createCheckoutPageHandler } from '../../lib/http/checkout-page/page-handler.js';

/** GET /checkout and GET /checkout/assets/{file}: the hosted checkout page. */
export const handler = createCheckoutPageHandler(checkoutPageDeps);
