import './logging.js'; // the configured log level, before anything logs
import { resolve } from 'node:path';
import { SessionRepository } from '../adapters/dynamodb/session-repository.js';
import type { CheckoutPageDeps } from '../http/checkout-page/page-handler.js';
import { acsThreeDsOrigins } from '../http/checkout-page/security-headers.js';
import { WebAssets } from '../http/checkout-page/web-assets.js';
import { documentClient } from './aws.js';
import { checkoutPageConfig } from './config/checkout-page-config.js';
import { sandboxConfig } from './config/sandbox-config.js';
import { serviceConfig } from './config/service-config.js';
import { clock } from './clock.js';

/**
 * The hosted checkout page (GET /checkout, /checkout/assets/{file}). web/dist is shipped with
 * the function (the route table's package patterns) and read relative to the working directory:
 * /var/task on Lambda, the service directory under serverless-offline and in tests.
 */
export const checkoutPageDeps: CheckoutPageDeps = {
  sessions: new SessionRepository(documentClient, serviceConfig.SESSIONS_TABLE),
  assets: new WebAssets(resolve(process.cwd(), 'web', 'dist')),
  sdkUrls: checkoutPageConfig.CLICK_TO_PAY_SDK_URLS,
  acsOrigins: acsThreeDsOrigins(
    sandboxConfig.SANDBOX_ACS_BASE_URL,
    checkoutPageConfig.THREE_DS_ACS_ORIGINS,
    checkoutPageConfig.THREE_DS_SERVER_URL !== undefined,
  ),
  now: clock,
};
