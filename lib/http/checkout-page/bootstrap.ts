import { hashSessionToken, isSessionTokenShaped } from '../../core/auth/session-token.js';
import type { HostedSession } from '../../core/domain/hosted-session.js';
import { scriptLiteral } from '../html-page.js';
import { BOOTSTRAP_MARKER } from './web-manifest.js';

/**
 * What the hosted page learns from the server before it runs (docs/sandbox-src-contract.md,
 * "Hosted checkout page"): the order the session is for, or why there is none. Never the
 * session token itself — the page reads it from its own URL.
 */
export type CheckoutBootstrap =
  | {
      orderRef: string;
      outletId: string;
      merchantRef: string;
      expiresAt: string;
      sdkUrls?: Record<string, string>;
      /**
       * Hosted payment page (SPEC 4.8), when the order has them: where to send the shopper once
       * the payment ends, with `orderRef=<orderRef>` added to the query; where "Cancel" goes
       * (absent: returnUrl); the shop's name for "Back to <shop>". Checked against the merchant's
       * redirectOrigins when the order was created.
       */
      returnUrl?: string;
      cancelUrl?: string;
      shopName?: string;
      /**
       * A payment link's description (SPEC 4.14): merchant free text, which the page shows as
       * text (never as HTML). Absent for orders that do not come from a link.
       */
      description?: string;
      /**
       * The Accept header of the navigation that loaded the page (SPEC 4.17): an EMV 3DS AReq
       * needs it (browserAcceptHeader) and JavaScript cannot read it, so the page echoes it back
       * in `browserInfo`. At most 2048 characters (the AReq's limit).
       */
      acceptHeader?: string;
    }
  | { error: 'SESSION_EXPIRED' | 'SESSION_INVALID' };

export interface BootstrapDeps {
  sessions: { findByTokenHash(tokenHash: string): Promise<HostedSession | undefined> };
  now: () => number;
  sdkUrls?: Record<string, string> | undefined;
}

/** Missing, malformed and unknown tokens all read as SESSION_INVALID; a malformed one is not even looked up. */
export async function bootstrapFor(sessionParam: string | undefined, deps: BootstrapDeps): Promise<CheckoutBootstrap> {
  if (!sessionParam || !isSessionTokenShaped(sessionParam)) return { error: 'SESSION_INVALID' };
  const session = await deps.sessions.findByTokenHash(hashSessionToken(sessionParam));
  if (!session) return { error: 'SESSION_INVALID' };
  if (session.expiresAt <= Math.floor(deps.now() / 1000)) return { error: 'SESSION_EXPIRED' };
  return {
    orderRef: session.orderRef,
    outletId: session.outletId,
    merchantRef: session.merchantRef,
    expiresAt: new Date(session.expiresAt * 1000).toISOString(),
    ...(deps.sdkUrls ? { sdkUrls: deps.sdkUrls } : {}),
    ...(session.returnUrl ? { returnUrl: session.returnUrl } : {}),
    ...(session.cancelUrl ? { cancelUrl: session.cancelUrl } : {}),
    ...(session.shopName ? { shopName: session.shopName } : {}),
    ...(session.description ? { description: session.description } : {}),
  };
}

/** The page's bootstrap with the Accept header of its own request (an error bootstrap stays as it is). */
export function withAcceptHeader(bootstrap: CheckoutBootstrap, accept: string | undefined): CheckoutBootstrap {
  const value = accept?.trim().slice(0, 2048);
  return 'error' in bootstrap || !value ? bootstrap : { ...bootstrap, acceptHeader: value };
}

/**
 * The shell with the bootstrap JSON in its `<script type="application/json">`. `<`, `>`, `&`
 * and the JS line separators are escaped, so no value can close the element or open a comment.
 */
export function renderPage(shell: string, bootstrap: CheckoutBootstrap): string {
  if (!shell.includes(BOOTSTRAP_MARKER)) throw new Error('web/dist/index.html has no bootstrap marker');
  const json = scriptLiteral(bootstrap);
  return shell.replace(BOOTSTRAP_MARKER, () => json);
}
