import * as z from 'zod';
import { blankAsUnset, commaList, parseEnv } from './parse-env.js';

/**
 * A JWE `kid` a card network assigned when the payload key was registered with it: Visa's is
 * `<certificate serial>|<subject DN>` (the DN has commas, `=` and spaces), Mastercard's a key
 * fingerprint. Printable ASCII, bounded: it is compared, logged, never interpreted.
 */
const networkKid = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII');

/**
 * `PAYLOAD_KEY_NETWORK_KIDS`: JSON `{ "<entry of PAYLOAD_KEY_IDS>": ["<network kid>", …] }`.
 * JSON rather than a comma list because a Visa kid contains commas. Every key named must be an
 * entry of PAYLOAD_KEY_IDS (a typo would otherwise silently register nothing), and a network kid
 * may name one payload key only (otherwise which key decrypts would be a guess).
 */
const networkKidsRecord = z.record(z.string().min(1), z.array(networkKid).min(1).max(16));

const networkKidsJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
  })
  .transform((value, ctx) => {
    // Checked here rather than piped so that an issue's path never holds a record key: those
    // are key ARNs, which parseEnv keeps out of its message.
    const parsed = networkKidsRecord.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'expected {"<entry of PAYLOAD_KEY_IDS>": ["<network kid>", …]}' });
    return z.NEVER;
  });

export const keysConfigSchema = z
  .object({
    /** KMS key ids, ARNs or aliases of the payload-decryption keys, current first. */
    PAYLOAD_KEY_IDS: commaList.pipe(z.array(z.string().min(1)).min(1)),
    PAYLOAD_KEY_NETWORK_KIDS: blankAsUnset(networkKidsJson).transform((value) => value ?? {}),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    for (const [keyId, kids] of Object.entries(config.PAYLOAD_KEY_NETWORK_KIDS)) {
      if (!config.PAYLOAD_KEY_IDS.includes(keyId)) {
        ctx.addIssue({ code: 'custom', path: ['PAYLOAD_KEY_NETWORK_KIDS'], message: 'names a key that is not in PAYLOAD_KEY_IDS' });
      }
      for (const kid of kids) {
        if (seen.has(kid)) ctx.addIssue({ code: 'custom', path: ['PAYLOAD_KEY_NETWORK_KIDS'], message: 'a network kid is registered twice' });
        seen.add(kid);
      }
    }
  });

export type KeysConfig = z.output<typeof keysConfigSchema>;

export const keysConfig = parseEnv(keysConfigSchema);
