import { describe, expect, it } from 'vitest';
import { keysConfigSchema } from '../../lib/composition/config/keys-config.js';
import { parseEnv } from '../../lib/composition/config/parse-env.js';
import { MASTERCARD_NETWORK_KID, VISA_NETWORK_KID } from '../fixtures/network-checkout-responses.js';

/** PAYLOAD_KEY_NETWORK_KIDS (docs/operating/keys.md): checked once, at start-up. */
const parse = (kids: string | undefined, ids = 'alias/new,alias/old') =>
  parseEnv(keysConfigSchema, { PAYLOAD_KEY_IDS: ids, ...(kids === undefined ? {} : { PAYLOAD_KEY_NETWORK_KIDS: kids }) });

describe('PAYLOAD_KEY_NETWORK_KIDS', () => {
  it('maps entries of PAYLOAD_KEY_IDS to network kids, commas and spaces of a Visa DN included', () => {
    const value = JSON.stringify({ 'alias/old': [VISA_NETWORK_KID], 'alias/new': [MASTERCARD_NETWORK_KID] });
    expect(parse(value).PAYLOAD_KEY_NETWORK_KIDS).toEqual({ 'alias/old': [VISA_NETWORK_KID], 'alias/new': [MASTERCARD_NETWORK_KID] });
  });

  it('unset or blank means no registered kids', () => {
    expect(parse(undefined).PAYLOAD_KEY_NETWORK_KIDS).toEqual({});
    expect(parse('  ').PAYLOAD_KEY_NETWORK_KIDS).toEqual({});
  });

  it.each([
    ['not JSON', 'visa=abc'],
    ['a key that is not in PAYLOAD_KEY_IDS', JSON.stringify({ 'alias/typo': ['k'] })],
    ['the same kid for two keys', JSON.stringify({ 'alias/new': ['k'], 'alias/old': ['k'] })],
    ['an empty list', JSON.stringify({ 'alias/new': [] })],
    ['a non-string kid', JSON.stringify({ 'alias/new': [42] })],
    ['a control character', JSON.stringify({ 'alias/new': ['a\nb'] })],
    ['an array instead of an object', JSON.stringify([['alias/new', 'k']])],
  ])('refuses %s, naming the variable but not its value', (_, value) => {
    expect(() => parse(value)).toThrow(/PAYLOAD_KEY_NETWORK_KIDS/);
    try {
      parse(value);
    } catch (error) {
      expect(String(error)).not.toContain('alias/');
    }
  });
});
