import { resolve } from 'node:path';
import { documentClient } from '../../lib/composition/aws.js';
import { createCheckoutPageHandler } from '../../lib/http/checkout-page/page-handler.js';
import { WebAssets } from '../../lib/http/checkout-page/web-assets.js';
import { checkoutPageConfig } from '../../lib/composition/config/checkout-page-config.js';
import { sandboxConfig } from '../../lib/composition/config/sandbox-config.js';
import { serviceConfig } from '../../lib/composition/config/service-config.js';
import { acsThreeDsOrigins } from '../../lib/http/checkout-page/security-headers.js';
import { SessionRepository } from '../../lib/adapters/dynamodb/session-repository.js';

/**
 * GET /checkout and GET /checkout/assets/{file}: the hosted checkout page.
 * web/dist is shipped with this function (routes.json package.patterns) and read relative to
 * the working directory: /var/task on Lambda, the service directory under serverless-offline
 * and in tests — in every case where the built web/dist sits.
 */
export const handler = createCheckoutPageHandler({
  sessions: new SessionRepository(documentClient, serviceConfig.SESSIONS_TABLE),
  assets: new WebAssets(resolve(process.cwd(), 'web', 'dist')),
  sdkUrls: checkoutPageConfig.CLICK_TO_PAY_SDK_URLS,
  acsOrigins: acsThreeDsOrigins(sandboxConfig.SANDBOX_ACS_BASE_URL, checkoutPageConfig.THREE_DS_ACS_ORIGINS),
  now: Date.now,
});
