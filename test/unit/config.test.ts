import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { commaList, parseEnv, urlString } from '../../lib/composition/config/parse-env.js';

describe('configuration parsing', () => {
  it('names the bad variables but never echoes their values', () => {
    const schema = z.object({ SECRET_URL: urlString, LIST: commaList.pipe(z.array(z.string()).min(1)) });
    expect(() => parseEnv(schema, { SECRET_URL: 'ftp://user:hunter2@host', LIST: ' , ' })).toThrow(/SECRET_URL, LIST/);
    try {
      parseEnv(schema, { SECRET_URL: 'ftp://user:hunter2@host', LIST: 'a' });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });

  it('parses comma lists and accepts https, http and file URLs only', () => {
    const schema = z.object({ U: urlString, L: commaList });
    expect(parseEnv(schema, { U: 'file:///tmp/jwks.json', L: 'a, b,,c' })).toEqual({ U: 'file:///tmp/jwks.json', L: ['a', 'b', 'c'] });
    expect(() => parseEnv(schema, { U: 'javascript:alert(1)', L: '' })).toThrow();
  });
});
