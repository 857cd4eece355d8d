import * as z from 'zod';

/**
 * Parses a slice of process.env with a zod schema once, at module load. A bad value
 * fails the cold start with a message naming the variables, never their values
 * (some are secrets or ARNs that do not belong in logs).
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env, { jitless: true });
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))];
    throw new Error(`Invalid configuration: check ${names.join(', ')}`);
  }
  return result.data;
}

export const urlString = z
  .string()
  .trim()
  .refine((value) => /^(https?|file):/.test(value) && URL.canParse(value), 'must be an https:, http: or file: URL');

/** `a,b , c` → ['a','b','c']; empty entries dropped. */
export const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Empty or blank means "not set": serverless params default to nothing, shells export "". */
export const blankAsUnset = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

/**
 * `visa=https://…,mastercard=file:///…` → [{ name, url }], each URL checked by `url`; names
 * are lowercase words and unique. Used for the networks' JWKS and the networks' SDK scripts.
 */
export const namedUrlList = (url: z.ZodType<string, string>) =>
  commaList.pipe(
    z
      .array(
        z
          .string()
          .regex(/^[a-z][a-z0-9-]{0,31}=.+$/, 'expected name=url')
          .transform((entry) => ({ name: entry.slice(0, entry.indexOf('=')), url: entry.slice(entry.indexOf('=') + 1) }))
          .pipe(z.object({ name: z.string(), url })),
      )
      .min(1)
      .refine((list) => new Set(list.map((n) => n.name)).size === list.length, 'duplicate network name'),
  );

/**
 * A URL a browser is sent to or frames: https, or http on a loopback host (local stacks and
 * tests). Anything else would let plain-http content run with the page's rights.
 */
export const webUrl = z
  .string()
  .trim()
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return url?.protocol === 'https:' || (url?.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  }, 'must be an https: URL (http: only for a loopback host)');
