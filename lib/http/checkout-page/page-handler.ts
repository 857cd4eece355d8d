import middy from '@middy/core';
import { withInvocationDeadline } from '../invocation-deadline.js';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { headerValue } from '../json-body.js';
import { problemResponse } from '../problem-details.js';
import { requestContext } from '../request-context.js';
import type { ApiContext, ApiEvent, ApiResponse } from '../types.js';
import { bootstrapFor, renderPage, withAcceptHeader, type BootstrapDeps } from './bootstrap.js';
import { assetHeaders, contentSecurityPolicy, pageHeaders } from './security-headers.js';
import type { WebAssets } from './web-assets.js';

export interface CheckoutPageDeps extends BootstrapDeps {
  assets: WebAssets;
  /** Origins of the 3DS ACSs the page may frame (security-headers.ts acsThreeDsOrigins). */
  acsOrigins?: readonly string[];
}

/** A built file name: one path segment, no leading dot (so never `..`). */
const assetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/);

/**
 * GET /checkout?session=… — the hosted checkout page (SPEC 4.9 checkoutUrl); and
 * GET /checkout/assets/{file} — its built, content-hashed files. Public: the page itself
 * calls the API with the session token it reads from its own URL.
 *
 * The page answers 200 for unknown, malformed or expired sessions too, with a bootstrap that
 * says so (`{ "error": "SESSION_INVALID" | "SESSION_EXPIRED" }`): the buyer gets a friendly
 * page instead of a bare error, and nothing tells a prober which tokens ever existed.
 */
export function createCheckoutPageHandler(deps: CheckoutPageDeps) {
  const csp = contentSecurityPolicy(deps.sdkUrls, deps.acsOrigins);
  const handler = (route: string) =>
    middy<ApiEvent, ApiResponse, Error, ApiContext>()
      .use(requestContext({ route }))
      .handler((event, context) => respond(event, context, deps, csp));
  const page = handler('GET /checkout');
  const assets = handler('GET /checkout/assets/{file}');
  return withInvocationDeadline((event: ApiEvent, context: Context) =>
    (event.pathParameters?.file === undefined ? page : assets)(event, context as ApiContext),
  ); // middy adds `api`
}

async function respond(event: ApiEvent, context: ApiContext, deps: CheckoutPageDeps, csp: string): Promise<ApiResponse> {
  const { api } = context;
  const file = event.pathParameters?.file;
  try {
    if (file === undefined) {
      const bootstrap = withAcceptHeader(await bootstrapFor(event.queryStringParameters?.session, deps), headerValue(event, 'accept'));
      return { statusCode: 200, headers: pageHeaders(csp), body: renderPage(await deps.assets.shell(), bootstrap) };
    }
    const asset = assetName.safeParse(file).success ? await deps.assets.asset(file) : undefined;
    if (!asset) return problemResponse(new NotFoundError(), api.requestId);
    const gzip = asset.gzip && /\bgzip\b/.test(headerValue(event, 'accept-encoding') ?? '') ? asset.gzip : undefined;
    return {
      statusCode: 200,
      headers: { ...assetHeaders(asset.contentType), Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
      body: (gzip ?? asset.body).toString('base64'),
      isBase64Encoded: true,
    };
  } catch (error) {
    // DynamoDB down, or the page was never built (npm run build:web): a plain, safe page.
    api.logger.error('checkout page unavailable', { error });
    return { statusCode: 503, headers: { ...pageHeaders(csp), 'Retry-After': '5' }, body: UNAVAILABLE };
  }
}

const UNAVAILABLE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout unavailable</title></head>' +
  '<body><h1>Checkout is temporarily unavailable</h1><p>Please try again in a moment.</p></body></html>';
