/**
 * A transcription of the part of a processor's published OpenAPI schema that this service uses:
 * the same keywords (OpenAPI 3 / JSON Schema subset), so the dev-time check
 * (infra/processors/check-schema-transcription.ts) can compare it with the published file
 * keyword by keyword. One transcription serves three purposes: the adapters' TypeScript types,
 * the runtime check of processor answers, and the fakes' validation of every request.
 */
export type SchemaNode = ObjectNode | StringNode | IntegerNode | BooleanNode | ArrayNode | RefNode;

export interface ObjectNode {
  type: 'object';
  properties: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  /** false: closed (as published); a node: a map of those; absent: open, OpenAPI's default. */
  additionalProperties?: false | SchemaNode;
}

export interface StringNode {
  type: 'string';
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  format?: 'byte' | 'date-time' | 'ipv4' | 'uri';
  pattern?: string;
}

export interface IntegerNode {
  type: 'integer';
  format?: 'int32' | 'int64';
  minimum?: number;
  maximum?: number;
}

export interface BooleanNode {
  type: 'boolean';
}

export interface ArrayNode {
  type: 'array';
  items: SchemaNode;
  minItems?: number;
}

/** A named component of the same transcription (`#/components/schemas/<name>` when published). */
export interface RefNode {
  $ref: string;
}

export interface Transcription {
  /** Where it was transcribed from: repository, file, version, commit. */
  source: { repository: string; path: string; version: string; commit: string };
  components: Readonly<Record<string, SchemaNode>>;
}
