import * as z from 'zod';
import { InternalError } from '../core/errors.js';
import type { ApiEvent } from './types.js';

/** Identifiers in paths and bodies: conservative on purpose (no slashes, spaces or unicode tricks). */
export const ref = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'Expected 1–64 letters, digits, ".", "_", ":" or "-"');

export const merchantParams = z.object({ merchantRef: ref });
export const tenantParams = z.object({ tenantRef: ref });
export const outletParams = z.object({ outletId: ref });
export const orderParams = z.object({ outletId: ref, orderRef: ref });
export const paymentParams = z.object({ outletId: ref, orderRef: ref, paymentRef: ref });
export const noQuery = z.object({}).strict();

/**
 * Where links we hand out (checkout URL, 3DS page) point: PUBLIC_BASE_URL first (set it when
 * a custom domain fronts the API; `npm start` sets it), else the API's own host, over https
 * unless API Gateway says otherwise.
 */
export function publicBaseUrl(event: ApiEvent, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const host = event.requestContext?.domainName ?? event.headers?.host;
  if (!host) throw new InternalError(undefined, { cause: new Error('no PUBLIC_BASE_URL and no request host to build links from') });
  return `${event.headers?.['x-forwarded-proto'] ?? 'https'}://${host}`;
}
