/**
 * Card numbers in free text: the logger redacts them (redactCardNumbers) and the API refuses
 * them in merchant free text (containsCardNumber, SPEC §3), by this one rule. A card number is 13–19 digits that pass the Luhn
 * check, written plain or in groups separated by spaces or tabs, hyphens, dots or slashes
 * ("4111 1111 1111 1111", "4111-1111-1111-1111", "4111.1111.1111.1111", "4111/1111/…").
 *
 * Ids are never cut: a run must stand on its own. It may not start or end inside a longer
 * alphanumeric or hyphenated token, so the digits of a UUID ("f0745073-fc9a-4bc1-2345-…"),
 * of a hex reference or of an `o-1234…` id are left alone, and a hyphenated all-digit token
 * counts as one piece (a 32-digit UUID is no 16-digit card). Long numbers that fail Luhn
 * (epoch milliseconds, amounts, order numbers) stay readable, 9 times in 10.
 */
export const REDACTED_CARD_NUMBER = '[redacted-pan]';

const WORD = 'A-Za-z0-9_';
/** Space-separated pieces of hyphen-joined digit groups, not touching a longer token either side. */
const CANDIDATE = new RegExp(`(?<![${WORD}]|[${WORD}][./-])\\d+(?:(?:[ \\t]+|[./-])\\d+)*(?![${WORD}]|[./-][${WORD}])`, 'g');
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

export function redactCardNumbers(text: string): string {
  if (!/\d/.test(text)) return text;
  return text.replace(CANDIDATE, (run) => redactPieces(run.split(/([ \t]+)/)));
}

/**
 * True when redactCardNumbers would redact something in `text`: the same candidates, the same
 * windows. Stricter than SPEC §3's "spaces or dashes" on purpose — dots, slashes and tabs
 * between the groups count too — and, like the redaction, blind to digits glued to a longer
 * token (`INV-4111…`, `ref_4111…`, `4111…x`), so that ids and UUIDs are never refused.
 */
export function containsCardNumber(text: string): boolean {
  if (!/\d/.test(text)) return false;
  for (const [run] of text.matchAll(CANDIDATE)) {
    const digits = digitsOf(run.split(/([ \t]+)/));
    for (let start = 0; start < digits.length; start += 1) {
      if (longestCardWindow(digits, start) !== undefined) return true;
    }
  }
  return false;
}

/** The digits of each piece of `parts` (pieces at even indexes, whitespace between them). */
function digitsOf(parts: string[]): string[] {
  return parts.filter((_, index) => index % 2 === 0).map((piece) => piece.replace(/[./-]/g, ''));
}

/**
 * `parts` alternates pieces (digit groups joined by `.`, `/` or `-`) and the whitespace
 * between them; finds, left to right, the longest Luhn-valid window of whole pieces of
 * 13–19 digits and replaces it, keeping the whitespace around it.
 */
function redactPieces(parts: string[]): string {
  const pieces = parts.filter((_, index) => index % 2 === 0);
  const digits = digitsOf(parts);
  let out = '';
  let start = 0;
  while (start < pieces.length) {
    if (start > 0) out += parts[2 * start - 1];
    const end = longestCardWindow(digits, start);
    out += end === undefined ? pieces[start]! : REDACTED_CARD_NUMBER;
    start = (end ?? start) + 1;
  }
  return out;
}

function longestCardWindow(digits: string[], start: number): number | undefined {
  let found: number | undefined;
  let joined = '';
  for (let end = start; end < digits.length; end += 1) {
    joined += digits[end]!;
    if (joined.length > MAX_DIGITS) break;
    if (joined.length >= MIN_DIGITS && luhnValid(joined)) found = end;
  }
  return found;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * A number (a JSON number in a log field) that could be a card number: an integer of 14–19
 * digits passing Luhn. 13 digits are left alone: epoch milliseconds have 13 until 2286, and
 * timestamps are logged as numbers.
 */
export function isCardLikeNumber(value: number): boolean {
  if (!Number.isInteger(value) || value < 1e13) return false;
  const digits = BigInt(value).toString();
  return digits.length >= 14 && digits.length <= MAX_DIGITS && luhnValid(digits);
}
