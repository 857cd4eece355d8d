/**
 * What an EMV 3DS AReq needs from the shopper's browser (SPEC 4.17 `browserInfo`): the values
 * only JavaScript can read, the Accept header of the navigation that loaded this page (the server
 * put it in the bootstrap: JavaScript cannot read it), and the challenge window this page will
 * give the ACS. The User-Agent, Accept-Language and IP travel with the request itself.
 */
export type ChallengeWindowSize = '01' | '02' | '03' | '04' | '05';

export interface BrowserInfo {
  acceptHeader: string;
  language: string;
  colorDepth: number;
  screenHeight: number;
  screenWidth: number;
  timeZoneOffset: number;
  javaEnabled: boolean;
  challengeWindowSize: ChallengeWindowSize;
}

/**
 * Below this viewport width (phones: 375 px) the challenge takes the step's whole width (05,
 * "full screen"); above it, the page offers the largest fixed EMV window that fits the room its
 * checkout panel has (on a desktop the panel is about 400 px wide: 02, 390×400).
 */
export const FULL_SCREEN_BELOW_PX = 600;

/** EMV challengeWindowSize → the frame's size in CSS pixels (`undefined`: the whole width of the step). */
export const WINDOW_SIZES: Readonly<Record<ChallengeWindowSize, { width?: number; height: number }>> = {
  '01': { width: 250, height: 400 },
  '02': { width: 390, height: 400 },
  '03': { width: 500, height: 600 },
  '04': { width: 600, height: 400 },
  '05': { height: 600 },
};

/** Fixed sizes, widest first. */
const FIXED: readonly ChallengeWindowSize[] = ['04', '03', '02', '01'];

export function challengeWindowSizeFor(viewportWidth: number, roomWidth = viewportWidth): ChallengeWindowSize {
  if (viewportWidth < FULL_SCREEN_BELOW_PX) return '05';
  return FIXED.find((size) => (WINDOW_SIZES[size].width ?? Number.POSITIVE_INFINITY) <= roomWidth) ?? '01';
}

/** The width the page's step has for a challenge frame: the checkout panel's content box. */
function roomOf(win: Window): number | undefined {
  const panel = win.document.querySelector?.('[data-step]');
  if (!panel) return undefined;
  const style = win.getComputedStyle(panel);
  return panel.clientWidth - Number.parseFloat(style.paddingLeft || '0') - Number.parseFloat(style.paddingRight || '0');
}

export function collectBrowserInfo(acceptHeader: string | undefined, win: Window = window): BrowserInfo {
  const java = (win.navigator as Navigator & { javaEnabled?: () => boolean }).javaEnabled;
  return {
    // Never absent: a browser's navigation always sends one; this is what Chromium sends.
    acceptHeader: acceptHeader || 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    language: win.navigator.language || 'en',
    colorDepth: win.screen.colorDepth,
    screenHeight: win.screen.height,
    screenWidth: win.screen.width,
    timeZoneOffset: new Date().getTimezoneOffset(),
    javaEnabled: typeof java === 'function' ? Boolean(java.call(win.navigator)) : false,
    challengeWindowSize: challengeWindowSizeFor(win.innerWidth || win.document.documentElement.clientWidth, roomOf(win)),
  };
}
