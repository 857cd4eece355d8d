export const PERMISSIONS = [
  'VIEW_UCTP_WALLET_CERTIFICATE',
  'CREATE_AUTHORIZATION',
  'VIEW_ORDER',
  'CREATE_ORDER',
  'CREATE_CAPTURE',
  'CREATE_REVERSAL',
  'CREATE_REFUND',
  'MANAGE_WEBHOOKS',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Who is calling, after the bearer token was verified. */
export type Principal = PlatformPrincipal | TenantPrincipal | SessionPrincipal;

export interface PlatformPrincipal {
  kind: 'platform';
  subject: string | undefined;
  permissions: ReadonlySet<string>;
}

export interface TenantPrincipal {
  kind: 'tenant';
  subject: string | undefined;
  tenantRef: string;
  merchantRef: string | undefined;
  outletIds: ReadonlySet<string> | undefined;
  permissions: ReadonlySet<string>;
}

/** A hosted-session token: one order, fixed permissions (SPEC §1). */
export interface SessionPrincipal {
  kind: 'session';
  tenantRef: string;
  merchantRef: string;
  outletId: string;
  orderRef: string;
  expiresAt: number;
  permissions: ReadonlySet<string>;
}

export const SESSION_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>(['VIEW_UCTP_WALLET_CERTIFICATE', 'CREATE_AUTHORIZATION', 'VIEW_ORDER']);

/** A safe, loggable description of the caller (never the token itself). */
export function describePrincipal(principal: Principal): Record<string, unknown> {
  switch (principal.kind) {
    case 'platform':
      return { realm: 'platform', sub: principal.subject };
    case 'tenant':
      return { realm: 'tenant', sub: principal.subject, tenantRef: principal.tenantRef, merchantRef: principal.merchantRef };
    case 'session':
      return { realm: 'session', orderRef: principal.orderRef, outletId: principal.outletId };
  }
}
