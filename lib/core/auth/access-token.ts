import { errors as joseErrors, jwtVerify, type JWTHeaderParameters } from 'jose';
import * as z from 'zod';
import { UnauthenticatedError } from '../errors.js';

import type { PlatformPrincipal, TenantPrincipal } from './principal.js';
import type { KeySet } from '../ports/network-keys.js';

/** Pinned: asymmetric only. `none` and HMAC can never verify, whatever the header says. */
export const ACCESS_TOKEN_ALGORITHMS = ['RS256', 'ES256'] as const;

const ref = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/);
const claimsSchema = z.discriminatedUnion('realm', [
  z.object({ realm: z.literal('platform'), sub: z.string().optional(), permissions: z.array(z.string()).default([]) }),
  z.object({
    realm: z.literal('tenant'),
    sub: z.string().optional(),
    tenantRef: ref,
    merchantRef: ref.optional(),
    outletIds: z.array(ref).max(500).optional(),
    permissions: z.array(z.string()).default([]),
  }),
]);

export interface AccessTokenVerifierOptions {
  issuer: string;
  audience: string;
  clockToleranceSeconds?: number;
  now?: () => Date;
}

/** Verifies identity-provider JWTs (SPEC §1 token kind 1) and turns them into principals. */
export class AccessTokenVerifier {
  constructor(
    private readonly jwks: KeySet,
    private readonly options: AccessTokenVerifierOptions,
  ) {
    if (!options.issuer || !options.audience) throw new Error('issuer and audience are required');
  }

  async verify(token: string): Promise<PlatformPrincipal | TenantPrincipal> {
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, (header) => this.keyFor(header), {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: [...ACCESS_TOKEN_ALGORITHMS],
        requiredClaims: ['exp'],
        clockTolerance: this.options.clockToleranceSeconds ?? 30,
        ...(this.options.now ? { currentDate: this.options.now() } : {}),
      }));
    } catch (cause) {
      if (!(cause instanceof joseErrors.JOSEError) && !(cause instanceof UnauthenticatedError)) throw cause;
      const detail = cause instanceof joseErrors.JWTExpired ? 'The access token has expired.' : undefined;
      throw new UnauthenticatedError(detail, { cause: new Error(`access token rejected: ${(cause as Error).message}`) });
    }
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) {
      throw new UnauthenticatedError(undefined, { cause: new Error('access token claims malformed') });
    }
    const c = claims.data;
    const permissions = new Set(c.permissions);
    if (c.realm === 'platform') return { kind: 'platform', subject: c.sub, permissions };
    return {
      kind: 'tenant',
      subject: c.sub,
      tenantRef: c.tenantRef,
      merchantRef: c.merchantRef,
      outletIds: c.outletIds ? new Set(c.outletIds) : undefined,
      permissions,
    };
  }

  private async keyFor(header: JWTHeaderParameters) {
    if (typeof header.kid !== 'string' || header.kid.length === 0) {
      throw new UnauthenticatedError(undefined, { cause: new Error('token has no kid') });
    }
    if (header.crit !== undefined) throw new UnauthenticatedError(undefined, { cause: new Error('crit not supported') });
    const key = await this.jwks.resolve(header.kid, header.alg);
    if (!key) throw new UnauthenticatedError(undefined, { cause: new Error('unknown kid') });
    return key;
  }
}
