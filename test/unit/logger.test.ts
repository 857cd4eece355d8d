import { describe, expect, it } from 'vitest';
import { Logger, redact } from '../../lib/logger.js';
import { CheckoutDecryptionFailedError } from '../../lib/errors.js';

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
