import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { LINK_REF } from '../../core/domain/payment-link.js';
import { NotFoundError, PaymentLinkInactiveError } from '../../core/errors.js';
import { publicBaseUrl } from '../params.js';
import { requestContext } from '../request-context.js';
import { withInvocationDeadline } from '../invocation-deadline.js';
import type { ApiContext, ApiEvent, ApiResponse } from '../types.js';
import { openPaymentLink, type OpenPaymentLinkDeps } from '../../core/links/open-payment-link.js';
import { linkPage } from './link-page.js';

/**
 * GET /pay/{linkRef} (SPEC 4.14), public: an active link → 303 to a fresh hosted checkout for
 * its order; anything else → a friendly HTML page in the checkout page's style (404 unknown,
 * 410 expired, cancelled or paid, 503 while a dependency is down), never a JSON error.
 */
export function createPayPageHandler(deps: OpenPaymentLinkDeps, options: { publicBaseUrl: string | undefined }) {
  const stack = middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestContext({ route: 'GET /pay/{linkRef}' }))
    .handler((event, context) => respond(event, context, deps, options.publicBaseUrl));
  return withInvocationDeadline((event: ApiEvent, context: Context) => stack(event, context as ApiContext));
}

async function respond(event: ApiEvent, context: ApiContext, deps: OpenPaymentLinkDeps, configuredBaseUrl: string | undefined): Promise<ApiResponse> {
  const linkRef = event.pathParameters?.linkRef ?? '';
  if (!LINK_REF.test(linkRef)) return linkPage('NOT_FOUND'); // never looked up
  try {
    const { checkoutUrl, link } = await openPaymentLink(deps, linkRef, publicBaseUrl(event, configuredBaseUrl));
    context.api.logger.info('payment link opened', { orderRef: link.orderRef, outletId: link.outletId });
    // The Location carries the session token: never cached, never sent on as a Referer.
    return { statusCode: 303, headers: { Location: checkoutUrl, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }, body: '' };
  } catch (error) {
    if (error instanceof NotFoundError) return linkPage('NOT_FOUND');
    if (error instanceof PaymentLinkInactiveError) return linkPage(error.reason);
    context.api.logger.error('payment link page unavailable', { error });
    return linkPage('DOWN');
  }
}
