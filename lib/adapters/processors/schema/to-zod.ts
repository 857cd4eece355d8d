import * as z from 'zod';
import type { SchemaNode, Transcription } from './dsl.js';

/**
 * Builds a zod schema from a transcribed component. `request` mode is the published contract
 * exactly (closed objects reject unknown members); `answer` mode reads processor answers
 * leniently (unknown members pass), so a field a processor adds tomorrow does not turn an
 * approval into an unreadable answer, while a missing required field or a wrong type still does.
 */
export function toZod(transcription: Transcription, name: string, mode: 'request' | 'answer'): z.ZodType {
  const cache = new Map<string, z.ZodType>();
  const build = (node: SchemaNode): z.ZodType => {
    if ('$ref' in node) {
      const cached = cache.get(node.$ref);
      if (cached) return cached;
      const target = transcription.components[node.$ref];
      if (!target) throw new Error(`transcription has no component ${node.$ref}`);
      const built = build(target);
      cache.set(node.$ref, built);
      return built;
    }
    switch (node.type) {
      case 'string':
        return stringSchema(node);
      case 'integer': {
        const [min, max] = node.format === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
        return z
          .int()
          .min(Math.max(min, node.minimum ?? min))
          .max(Math.min(max, node.maximum ?? max));
      }
      case 'boolean':
        return z.boolean();
      case 'array': {
        const items = z.array(build(node.items));
        return node.minItems === undefined ? items : items.min(node.minItems);
      }
      case 'object': {
        const required = new Set(node.required ?? []);
        const shape = Object.fromEntries(
          Object.entries(node.properties).map(([key, inner]) => [key, required.has(key) ? build(inner) : build(inner).optional()]),
        );
        if (node.additionalProperties && typeof node.additionalProperties === 'object') {
          return Object.keys(shape).length === 0 ? z.record(z.string(), build(node.additionalProperties)) : z.looseObject(shape);
        }
        return mode === 'request' && node.additionalProperties === false ? z.strictObject(shape) : z.looseObject(shape);
      }
    }
  };
  const root = transcription.components[name];
  if (!root) throw new Error(`transcription has no component ${name}`);
  return build(root);
}

function stringSchema(node: Extract<SchemaNode, { type: 'string' }>): z.ZodType {
  if (node.enum) return z.enum(node.enum as [string, ...string[]]);
  let schema = z.string();
  if (node.minLength !== undefined) schema = schema.min(node.minLength);
  if (node.maxLength !== undefined) schema = schema.max(node.maxLength);
  if (node.pattern !== undefined) schema = schema.regex(new RegExp(node.pattern));
  switch (node.format) {
    case 'byte':
      return schema.pipe(z.base64());
    case 'ipv4':
      return schema.pipe(z.ipv4());
    case 'uri':
      return schema.pipe(z.url());
    case 'date-time':
      return schema.pipe(z.iso.datetime({ offset: true }));
    default:
      return schema;
  }
}
