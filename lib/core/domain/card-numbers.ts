/**
 * Card numbers in free text, for the logger. A card number is 13–19 digits that pass the Luhn
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
 * `parts` alternates pieces (digit groups joined by `.`, `/` or `-`) and the whitespace
 * between them; finds, left to right, the longest Luhn-valid window of whole pieces of
 * 13–19 digits and replaces it, keeping the whitespace around it.
 */
function redactPieces(parts: string[]): string {
  const pieces = parts.filter((_, index) => index % 2 === 0);
  const digits = pieces.map((piece) => piece.replace(/[./-]/g, ''));
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
