import type * as z from 'zod';

/** A JSON secret in its documented shape; the error names the shape, never quotes the secret. */
export function parsedSecret<S extends z.ZodType>(value: string, schema: S, shape: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error(`the secret is not JSON (expected ${shape})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`the secret is not ${shape}`);
  return parsed.data;
}
