/**
 * Reads what the server rendered into <script type="application/json" id="bootstrap"> and the
 * session token from the address bar. The token is removed from the URL at once
 * (history.replaceState) and kept in memory and in this tab's sessionStorage, so that a reload
 * of /checkout (now without ?session=) can carry on.
 */

export interface SessionContext {
  orderRef: string;
  outletId: string;
  merchantRef: string;
  expiresAt: string;
  /** CLICK_TO_PAY_SDK_URLS: the networks' SDK scripts, and the key Visa gives for new cards (`visa-card-key`). */
  sdkUrls?: { visa?: string; mastercard?: string; visaCardKey?: string };
  /** Hosted payment page (SPEC 4.8): where the shopper goes back to, checked by the server against redirectOrigins. */
  returnUrl?: string;
  cancelUrl?: string;
  /** The shop's name for "Back to <shop>" (the merchant's display name when absent). */
  shopName?: string;
  /** A payment link's description (SPEC 4.14): merchant free text, rendered as text only. */
  description?: string;
  /** The Accept header of this page's navigation, for an EMV 3DS step-up's browserInfo. */
  acceptHeader?: string;
}

export type BootstrapResult = { ok: true; token: string; context: SessionContext } | { ok: false; error: 'SESSION_EXPIRED' | 'SESSION_INVALID' };

const STORAGE_KEY = 'ctp.hosted-session';

export function readBootstrap(doc: Document = document, win: Window = window): BootstrapResult {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get('session');
  if (fromUrl !== null) {
    url.searchParams.delete('session');
    win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }

  const rendered = parseRendered(doc);
  if (rendered && 'context' in rendered) {
    const token = fromUrl ?? stored()?.token;
    if (!token) return { ok: false, error: 'SESSION_INVALID' };
    remember(token, rendered.context);
    return { ok: true, token, context: rendered.context };
  }
  // No usable bootstrap. A reload after the token left the address bar renders an error
  // page for "no session": carry on with what this tab remembered, if anything.
  const saved = fromUrl === null ? stored() : undefined;
  if (saved) return { ok: true, token: saved.token, context: saved.context };
  forget();
  return { ok: false, error: rendered?.error ?? 'SESSION_INVALID' };
}

export function forget(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable (private mode): nothing to forget
  }
}

function parseRendered(doc: Document): { context: SessionContext } | { error: 'SESSION_EXPIRED' | 'SESSION_INVALID' } | undefined {
  const element = doc.getElementById('bootstrap');
  if (!element?.textContent) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(element.textContent);
  } catch {
    return undefined;
  }
  if (!data || typeof data !== 'object') return undefined;
  const value = data as Record<string, unknown>;
  if (value.error === 'SESSION_EXPIRED') return { error: 'SESSION_EXPIRED' };
  if (value.error !== undefined) return { error: 'SESSION_INVALID' };
  const context = toContext(value);
  return context ? { context } : undefined;
}

function toContext(value: Record<string, unknown>): SessionContext | undefined {
  const { orderRef, outletId, merchantRef, expiresAt, sdkUrls, returnUrl, cancelUrl, shopName, description, acceptHeader } = value;
  if (typeof orderRef !== 'string' || typeof outletId !== 'string' || typeof merchantRef !== 'string') return undefined;
  const context: SessionContext = { orderRef, outletId, merchantRef, expiresAt: typeof expiresAt === 'string' ? expiresAt : '' };
  // The server checked these; the page still takes only plain http(s) addresses (never javascript:).
  if (isWebUrl(returnUrl)) context.returnUrl = returnUrl;
  if (isWebUrl(cancelUrl)) context.cancelUrl = cancelUrl;
  if (typeof shopName === 'string' && shopName.trim()) context.shopName = shopName.trim();
  if (typeof description === 'string' && description.trim()) context.description = description.trim();
  if (typeof acceptHeader === 'string' && acceptHeader.length <= 2048) context.acceptHeader = acceptHeader;
  if (sdkUrls && typeof sdkUrls === 'object') {
    const urls = sdkUrls as Record<string, unknown>;
    context.sdkUrls = {
      ...(typeof urls.visa === 'string' ? { visa: urls.visa } : {}),
      ...(typeof urls.mastercard === 'string' ? { mastercard: urls.mastercard } : {}),
      ...(typeof urls['visa-card-key'] === 'string' ? { visaCardKey: urls['visa-card-key'] } : {}),
      ...(typeof urls.visaCardKey === 'string' ? { visaCardKey: urls.visaCardKey } : {}),
    };
  }
  return context;
}

function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

function remember(token: string, context: SessionContext): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ token, context }));
  } catch {
    // storage unavailable: the token stays in memory only
  }
}

function stored(): { token: string; context: SessionContext } | undefined {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as { token?: unknown; context?: unknown };
    const context = parsed.context && typeof parsed.context === 'object' ? toContext(parsed.context as Record<string, unknown>) : undefined;
    if (typeof parsed.token !== 'string' || !context) return undefined;
    if (context.expiresAt && Date.parse(context.expiresAt) <= Date.now()) return undefined;
    return { token: parsed.token, context };
  } catch {
    return undefined;
  }
}
