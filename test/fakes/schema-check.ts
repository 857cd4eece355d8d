import type { Transcription } from '../../lib/adapters/processors/schema/dsl.js';
import { toZod } from '../../lib/adapters/processors/schema/to-zod.js';

/**
 * A fake's check of a request body against the processor's published schema (the committed
 * transcription): the list of violations, paths only — never the values, which may be a token
 * number or a cryptogram.
 */
export function violations(transcription: Transcription, component: string, body: unknown): string[] {
  const result = toZod(transcription, component, 'request').safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.code}`);
}
