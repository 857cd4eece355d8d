import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Logger, redact } from '../../lib/core/ports/logger.js';
import { luhnValid, REDACTED_CARD_NUMBER } from '../../lib/core/domain/card-numbers.js';
import { CheckoutDecryptionFailedError } from '../../lib/core/errors.js';

describe('structured logger', () => {
  it('writes one JSON object per line with level, time, message and context', () => {
    const lines: string[] = [];
    new Logger({ service: 's' }, 'info', (line) => lines.push(line)).child({ requestId: 'r1' }).info('hello', { n: 1 });
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 'info', message: 'hello', service: 's', requestId: 'r1', n: 1 });
    expect(Date.parse(entry.time)).not.toBeNaN();
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    new Logger({}, 'warn', (line) => lines.push(line)).info('quiet');
    expect(lines).toEqual([]);
  });

  it('redacts sensitive keys and card-number-shaped digits anywhere', () => {
    const out = JSON.stringify(
      redact({
        authorization: 'Bearer eyJ.secret.token',
        body: { paymentToken: '4895370012003478', note: 'pan 4111 1111 1111 1111 here', dynamicData: [{ dynamicDataValue: 'crypt' }] },
        sessionToken: 'hs_abc',
        privateKey: '-----BEGIN',
        amount: 1000,
      }),
    );
    for (const secret of ['eyJ.secret', '4895370012003478', '4111 1111', 'crypt', 'hs_abc', 'BEGIN']) expect(out).not.toContain(secret);
    expect(out).toContain('"amount":1000');
  });

  it('serializes errors with their cause chain, redacted', () => {
    const error = new CheckoutDecryptionFailedError(undefined, { cause: new Error('tag mismatch for 4895370012003478') });
    const out = JSON.stringify(redact({ error }));
    expect(out).toContain('CheckoutDecryptionFailedError');
    expect(out).toContain('tag mismatch');
    expect(out).not.toContain('4895370012003478');
  });
});

describe('card-number redaction (field names plus Luhn-valid 13–19 digit runs)', () => {
  const PANS = ['4111111111111111', '5555555555554444', '378282246310005', '4895370012003478', '6011000990139424', '4000056655665556', '4222222222222'];

  it('never cuts a UUID, whatever its digits (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.constantFrom('', 'paymentRef ', '"', 'x ', '/orders/'), (uuid, prefix) => {
        expect(redact(`${prefix}${uuid}`)).toBe(`${prefix}${uuid}`);
        expect(JSON.stringify(redact({ paymentRef: uuid, message: `payment ${uuid} authorised` }))).toBe(
          JSON.stringify({ paymentRef: uuid, message: `payment ${uuid} authorised` }),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps an all-digit UUID, a UUID whose tail is digits and Luhn-valid runs inside ids whole', () => {
    for (const id of [
      '12345678-1234-1234-1234-123456789012',
      'f0745073-fc9a-4bc1-2345-678901234567',
      'o-4111111111111111',
      'ref_4111111111111111',
      '4111111111111111x',
    ]) {
      expect(redact(id)).toBe(id);
    }
  });

  it('redacts PANs plain, spaced, hyphenated, inside a sentence and inside JSON text', () => {
    for (const pan of PANS) {
      expect(luhnValid(pan)).toBe(true);
      const spaced = pan.replace(/(\d{4})(?=\d)/g, '$1 ');
      const hyphenated = pan.replace(/(\d{4})(?=\d)/g, '$1-');
      for (const text of [
        pan,
        spaced,
        hyphenated,
        `card ${spaced} declined`,
        `pan=${pan}.`,
        JSON.stringify({ pan: hyphenated, n: 1 }),
        `(${pan})`,
        `-${pan}`,
      ]) {
        const out = redact(text) as string;
        expect(out, text).toContain(REDACTED_CARD_NUMBER);
        expect(out.replace(/\D/g, ''), text).not.toContain(pan.slice(6));
      }
    }
    expect(redact('order 1000 card 4111 1111 1111 1111 at 12:00')).toBe(`order 1000 card ${REDACTED_CARD_NUMBER} at 12:00`);
    expect(redact('2026-01-15 4111111111111111')).toBe(`2026-01-15 ${REDACTED_CARD_NUMBER}`);
  });

  it('keeps long numbers that fail Luhn: epoch milliseconds, amounts, references', () => {
    const survivors = ['1732377600001', '1700000000000', '100000000000000', '4111111111111112', '1250 3300 1275 9000', '12345678901234567890123'];
    for (const text of survivors) {
      if (text.replace(/\D/g, '').length <= 19) expect(luhnValid(text.replace(/\D/g, '')), text).toBe(false);
      expect(redact(`at ${text} ms`)).toBe(`at ${text} ms`);
    }
    // Too short to be a card number.
    expect(redact('411111111111')).toBe('411111111111');
    // Groups separated by several spaces, a tab or a slash are still a card number.
    for (const text of ['4111  1111  1111  1111', '4111\t1111\t1111\t1111', '4111/1111/1111/1111']) expect(redact(text)).toBe('[redacted-pan]');
  });

  it('property: any Luhn-valid 13–19 digit number standing alone is redacted, in any grouping', () => {
    const luhnNumber = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }).map((digits) => {
      for (let check = 0; check <= 9; check += 1) if (luhnValid(digits.join('') + check)) return digits.join('') + check;
      throw new Error('unreachable');
    });
    fc.assert(
      fc.property(luhnNumber, fc.constantFrom('', ' ', '-'), fc.constantFrom(3, 4, 5), (pan, separator, group) => {
        const grouped = separator ? pan.replace(new RegExp(`(\\d{${group}})(?=\\d)`, 'g'), `$1${separator}`) : pan;
        expect(redact(`card ${grouped} here`)).toBe(`card ${REDACTED_CARD_NUMBER} here`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('log lines: card data is redacted whatever its shape or name, ids are kept whole', () => {
  const linesOf = (write: (logger: Logger) => void) => {
    const lines: string[] = [];
    write(new Logger({}, 'debug', (line) => lines.push(line)));
    return lines.join('\n');
  };

  // Clients do send PANs as JSON numbers: a careless `logger.info('x', { body })` must not leak
  // them, so redaction looks at numbers too, not only at strings.
  it('a card number sent as a JSON number is redacted from the log line', () => {
    const line = linesOf((logger) => logger.info('request body', { body: { card: { number: 4111111111111111 }, accountNumber: 5555555555554444 } }));
    expect(line).not.toContain('4111111111111111');
    expect(line).not.toContain('5555555555554444');
  });

  // Groups separated by more than one space, a tab or a slash are one card number, not short runs.
  it('a card number grouped with two spaces, a tab or a slash is redacted', () => {
    for (const written of ['4111  1111  1111  1111', '4111\t1111\t1111\t1111', '4111/1111/1111/1111']) {
      expect(redact(`card ${written}`)).not.toContain('4111');
    }
  });

  // The networks and 3DS name the cryptogram TAVV, CAVV or authenticationValue (TAVV is one of
  // SPEC 4.3 step 6's types); it is base64, so the Luhn rule never catches it: the key names must.
  it('cryptograms under their network names (tavv, cavv, authenticationValue) are redacted', () => {
    const cryptogram = 'AgAAAAAABk4DWZ4C28yUQAAAAAA=';
    const line = linesOf((logger) => logger.info('3ds result', { tavv: cryptogram, cavv: cryptogram, authenticationValue: cryptogram }));
    expect(line).not.toContain(cryptogram);
  });

  it('ids are never cut (UUIDs, base64url session ids, PAR) and a plain PAN is', () => {
    const ids = ['f0745073-fc9a-4bc1-2345-411111111111', 'src_4111111111111111abc', 'V0010013819219553391925592151', 'o-4111111111111111'];
    for (const id of ids) expect(redact(`"paymentRef":"${id}"`)).toContain(id);
    expect(redact('pan 4111 1111 1111 1111')).toBe('pan [redacted-pan]');
  });

  it('a UUID whose tail is digits is kept whole: paymentRefs stay readable in logs', () => {
    const paymentRef = 'f0745073-fc9a-4bc1-2345-678901234567';
    expect(JSON.stringify(redact({ paymentRef }))).toContain(paymentRef);
  });

  it('a PAN written with dots is redacted', () => {
    expect(String(redact('card 4111.1111.1111.1111'))).not.toContain('4111.1111.1111.1111');
  });
});
