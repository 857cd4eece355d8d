import { isIP } from 'node:net';
import type { BrowserInfo } from '../../../core/ports/three-ds-server.js';

/**
 * The AReq's browser fields (areq_220 / areq_231, browser channel) from what the page collected
 * and the request showed. Values the page cannot be trusted to keep within the table are fitted
 * here, so that a long user agent or an exotic screen never costs the shopper the authentication.
 */
export interface BrowserFields {
  browserAcceptHeader: string;
  browserUserAgent: string;
  browserIP?: string;
  browserLanguage: string;
  browserColorDepth: string;
  browserScreenHeight: string;
  browserScreenWidth: string;
  browserTZ: string;
  browserJavaEnabled: boolean;
  browserJavascriptEnabled: true;
}

/** Table maximums (areq_220/areq_231): accept header and user agent 2048, IP 45, language 1–8. */
const HEADER_MAX = 2048;

export function browserFields(browser: BrowserInfo): BrowserFields {
  const ip = browser.ip && isIP(browser.ip) !== 0 && browser.ip.length <= 45 ? browser.ip : undefined;
  return {
    // The user agent's description: "If the total length … exceeds 2048 characters, truncate the excess portion".
    browserAcceptHeader: browser.acceptHeader.slice(0, HEADER_MAX),
    browserUserAgent: browser.userAgent.slice(0, HEADER_MAX),
    ...(ip ? { browserIP: ip } : {}),
    browserLanguage: fitLanguage(browser.language),
    browserColorDepth: colorDepth(browser.colorDepth),
    browserScreenHeight: pixels(browser.screenHeight),
    browserScreenWidth: pixels(browser.screenWidth),
    browserTZ: String(Math.max(-9999, Math.min(9999, Math.trunc(browser.timeZoneOffset)))),
    browserJavaEnabled: browser.javaEnabled,
    // The page that collected these is JavaScript.
    browserJavascriptEnabled: true,
  };
}

/** browserColorDepth's allowed values (areq_220: 1, 4, 8, 15, 16, 24, 32, 48). */
const COLOR_DEPTHS = [1, 4, 8, 15, 16, 24, 32, 48] as const;

/**
 * "In case the actual value does not exist in the allowed values, use the closest lower value"
 * (the 2.1.0 table's browserColorDepth; changelog.rst 2020-11-11): a 30-bit screen says 24.
 */
export function colorDepth(depth: number): string {
  const fitting = COLOR_DEPTHS.filter((allowed) => allowed <= depth);
  return String(fitting.at(-1) ?? COLOR_DEPTHS[0]);
}

/**
 * browserLanguage is BCP 47 in 1–8 characters: a longer tag keeps as many leading subtags as
 * fit ("zh-Hant-TW" → "zh-Hant"); a tag whose first subtag alone is too long, or an empty
 * one, says "en" rather than nothing (the field is required in 2.2.0).
 */
export function fitLanguage(tag: string): string {
  const subtags = tag.trim().split(/[-_]/).filter(Boolean);
  while (subtags.length > 0 && subtags.join('-').length > 8) subtags.pop();
  const fitted = subtags.join('-');
  return /^[A-Za-z0-9-]{1,8}$/.test(fitted) ? fitted : 'en';
}

/** browserScreenHeight/Width: ^[0-9]{1,6}$. */
const pixels = (value: number) => String(Math.max(0, Math.min(999_999, Math.trunc(value))));

/**
 * 2.3.1 acceptLanguage (array of BCP 47 tags, from the Accept-Language header): the header's
 * tags in order, without weights or `*`, at most 10; the browser language when there is no header.
 */
export function acceptLanguages(header: string | undefined, fallback: string): string[] {
  const tags = (header ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag));
  return tags.length > 0 ? tags.slice(0, 10) : [fitLanguage(fallback)];
}
