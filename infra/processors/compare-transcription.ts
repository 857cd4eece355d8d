import type { SchemaNode, Transcription } from '../../lib/adapters/processors/schema/dsl.js';

/**
 * Compares a committed transcription (lib/adapters/processors/schema/dsl.ts) with the published
 * OpenAPI components it was copied from, keyword by keyword: every transcribed member must exist
 * as published with the same type, format, enum, length and range limits, pattern and closedness;
 * every published required member must be transcribed and required. Published `$ref`s, single
 * `allOf` wrappers and multi-`allOf` compositions are resolved; a transcribed `$ref` may pick one
 * member of a published `oneOf` or one mapping of a discriminator. Returns the differences.
 */
export type SpecNode = Record<string, any>;

export function compareTranscription(transcription: Transcription, spec: Record<string, SpecNode>, names: readonly string[]): string[] {
  const problems: string[] = [];
  const compared = new Set<string>();

  const resolve = (node: SpecNode | undefined, where: string): SpecNode | undefined => {
    if (!node) return undefined;
    if (typeof node.$ref === 'string') {
      const target = spec[refName(node.$ref)];
      if (!target) problems.push(`${where}: published $ref ${node.$ref} not found`);
      return resolve(target, where);
    }
    if (Array.isArray(node.allOf)) {
      const { allOf, ...siblings } = node;
      const parts = (allOf as SpecNode[]).map((part) => resolve(part, where) ?? {});
      const merged: SpecNode = { ...siblings };
      for (const part of parts) {
        for (const [key, value] of Object.entries(part)) {
          if (key === 'properties') merged.properties = { ...merged.properties, ...value };
          else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...value])];
          else merged[key] ??= value;
        }
      }
      return merged;
    }
    return node;
  };

  const component = (name: string, published: SpecNode | undefined, where: string) => {
    const key = `${name}@${where.split('.')[0]}`;
    if (compared.has(name)) return;
    compared.add(name);
    const transcribed = transcription.components[name];
    if (!transcribed) return void problems.push(`${where}: transcription has no component ${name}`);
    if (!published) return void problems.push(`${where}: published schema has no component ${name} (${key})`);
    node(transcribed, published, name);
  };

  const node = (t: SchemaNode, s: SpecNode | undefined, where: string, discriminatorValues?: string[]): void => {
    if ('$ref' in t) {
      const published = resolve(s, where);
      if (s && typeof s.$ref === 'string' && refName(s.$ref) === t.$ref) return component(t.$ref, spec[t.$ref], where);
      if (published?.oneOf) {
        const member = (published.oneOf as SpecNode[]).find((candidate) => typeof candidate.$ref === 'string' && refName(candidate.$ref) === t.$ref);
        if (!member) return void problems.push(`${where}: published oneOf has no member ${t.$ref}`);
        return component(t.$ref, spec[t.$ref], where);
      }
      const mapping = published?.discriminator?.mapping as Record<string, string> | undefined;
      if (mapping && Object.values(mapping).some((ref) => refName(ref) === t.$ref)) return component(t.$ref, spec[t.$ref], where);
      if (!published) return void problems.push(`${where}: not published`);
      return node(transcription.components[t.$ref]!, published, where);
    }
    const p = resolve(s, where);
    if (!p) return void problems.push(`${where}: not published`);
    const publishedType = p.type ?? (p.properties ? 'object' : undefined);
    if (t.type !== publishedType) return void problems.push(`${where}: type ${t.type}, published ${publishedType}`);
    switch (t.type) {
      case 'string': {
        if (t.enum && !p.enum) {
          if (!discriminatorValues || !t.enum.every((value) => discriminatorValues.includes(value)))
            problems.push(`${where}: enum transcribed, none published`);
        } else if (p.enum && !sameSet(t.enum ?? [], p.enum)) problems.push(`${where}: enum [${t.enum ?? ''}], published [${p.enum}]`);
        for (const keyword of ['minLength', 'maxLength', 'format', 'pattern'] as const) same(t[keyword], p[keyword], `${where}.${keyword}`);
        return;
      }
      case 'integer':
        for (const keyword of ['format', 'minimum', 'maximum'] as const) same(t[keyword], p[keyword], `${where}.${keyword}`);
        return;
      case 'boolean':
        return;
      case 'array':
        same(t.minItems, p.minItems, `${where}.minItems`);
        return node(t.items, p.items, `${where}[]`);
      case 'object': {
        const required = new Set<string>(p.required ?? []);
        for (const name of required)
          if (!(t.required ?? []).includes(name)) problems.push(`${where}: published required member ${name} is not transcribed as required`);
        for (const name of t.required ?? []) if (!required.has(name)) problems.push(`${where}: ${name} transcribed as required, published optional`);
        if (p.additionalProperties === false && t.additionalProperties !== false) problems.push(`${where}: published closed (additionalProperties false)`);
        if (t.additionalProperties === false && p.additionalProperties !== false) problems.push(`${where}: transcribed closed, published open`);
        if (typeof t.additionalProperties === 'object')
          node(t.additionalProperties, typeof p.additionalProperties === 'object' ? p.additionalProperties : undefined, `${where}{}`);
        const discriminator = p.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
        for (const [name, inner] of Object.entries(t.properties)) {
          const values = discriminator?.propertyName === name ? Object.keys(discriminator.mapping ?? {}) : undefined;
          node(inner, p.properties?.[name], `${where}.${name}`, values);
        }
        return;
      }
    }
  };

  const same = (transcribed: unknown, published: unknown, where: string) => {
    if (transcribed !== published) problems.push(`${where}: transcribed ${String(transcribed)}, published ${String(published)}`);
  };

  for (const name of names) component(name, spec[name], name);
  return problems;
}

export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const sameSet = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((value) => b.includes(value));
