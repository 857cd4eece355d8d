import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Permission, Principal } from '../core/auth/principal.js';
import type { Logger } from '../core/ports/logger.js';
import type { PaymentReadAhead } from '../core/ports/order-store.js';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/** What a route demands of its caller before the handler runs. */
export type AccessRequirement =
  | { kind: 'any' }
  | { kind: 'permission'; permission: Permission }
  | { kind: 'platform' }
  /** A platform token, or a tenant token holding the permission (4.15: `MANAGE_WEBHOOKS`). */
  | { kind: 'platformOrPermission'; permission: Permission }
  /**
   * A hosted-session token (its own order only: the use case scopes it), or an access token
   * holding the permission. The retry of a declined payment: the shopper's page or the merchant.
   */
  | { kind: 'sessionOrPermission'; permission: Permission };

/**
 * Whether hosted-session tokens (principal kind `session`, SPEC §1) may call a route at all.
 * Default-deny: a route that does not say `'allowed'` answers 403 PERMISSION_DENIED to a
 * session token before anything else runs. A session token lives in a shopper's browser, so
 * only the routes the hosted page needs allow it: 4.1, 4.2, 4.3, 4.10, GET order and the retry
 * of a declined payment (POST …/orders/{orderRef}/payments).
 */
export type SessionTokenPolicy = 'allowed' | 'refused';

export interface RouteSchemas<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (4.11, 4.13: no body = all that is left). */
  bodyOptional?: boolean;
}

/** Filled in by the middlewares, read by the route's use-case call. */
export interface ApiState {
  requestId: string;
  logger: Logger;
  startedAt: number;
  principal?: Principal;
  /** The order and payment read with a hosted session (the route table's `readAhead`, lib/http/routes.ts). */
  readAhead?: PaymentReadAhead;
  rawBody?: unknown;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export type ApiContext = Context & { api: ApiState };

export interface ApiRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  /** Set on `readAhead: 'payment'` routes called with a hosted-session token. */
  readAhead?: PaymentReadAhead | undefined;
  requestId: string;
  logger: Logger;
  event: ApiEvent;
}

export interface ApiResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}
