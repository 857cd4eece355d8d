import { isIP } from 'node:net';
import * as z from 'zod';
import type { FieldFormat, FieldRow, FieldTable } from './field-table.js';

/**
 * A zod schema from a transcribed field table (field-table.ts).
 *
 * - `unknownFields: 'refuse'` is how the fake 3DS Server reads a request: a field the table
 *   does not have is an error, as is a missing required field, a too-long value, a pattern,
 *   enum or format it breaks, and a conditional field missing when its condition holds.
 * - `unknownFields: 'keep'` with `only` is how the client reads an answer: the fields it uses
 *   are checked as documented, anything else the server adds passes untouched (a 3DS Server
 *   that adds a field must not break authentications).
 */
export interface SchemaOptions {
  unknownFields: 'refuse' | 'keep';
  /** Only these rows; the default is all. */
  only?: readonly string[];
  /**
   * Accept `http://localhost` / `http://127.0.0.1` where the table says `urlHttps`: for a local
   * demo and tests whose notification endpoint is a loopback server. Off, the schema is the table.
   */
  loopbackHttpAllowed?: boolean;
  /** `ignore`: the "Required if" clauses are not enforced (a reader that checks presence itself). Default `enforce`. */
  conditions?: 'enforce' | 'ignore';
}

/** An issue's params: `missing` marks a required field that is absent (EMV error 201 rather than 203). */
export interface FieldIssueParams {
  missing?: boolean;
}

export function schemaOf(table: FieldTable, options: SchemaOptions): z.ZodType<Record<string, unknown>> {
  const rows = options.only ? table.rows.filter((row) => options.only!.includes(row.name)) : table.rows;
  if (options.only) {
    const absent = options.only.filter((name) => !rows.some((row) => row.name === name));
    if (absent.length > 0) throw new Error(`${table.table} has no field ${absent.join(', ')}`);
  }
  const shape: Record<string, z.ZodType> = {};
  for (const row of rows) {
    const value = valueSchema(row, options);
    shape[row.name] = row.inclusion === 'Required' ? value : value.optional();
  }
  const object = options.unknownFields === 'refuse' ? z.strictObject(shape) : z.looseObject(shape);
  if (options.conditions === 'ignore') return object;
  const conditional = rows.filter((row) => row.inclusion === 'Conditional' && row.requiredIf?.length && row.requiredIf.every((clause) => parseClause(clause)));
  if (conditional.length === 0) return object;
  return object.superRefine((message, ctx) => {
    for (const row of conditional) {
      if (message[row.name] !== undefined) continue;
      if (row.requiredIf!.every((clause) => parseClause(clause)!(message))) {
        ctx.addIssue({
          code: 'custom',
          path: [row.name],
          message: `required if ${row.requiredIf!.join(' and ')}`,
          params: { missing: true } satisfies FieldIssueParams,
        });
      }
    }
  });
}

function valueSchema(row: FieldRow, options: SchemaOptions): z.ZodType {
  if (row.type === 'string') return stringSchema(row, options);
  if (row.type === 'bool') return row.enum?.length === 1 && row.enum[0] === 'true' ? z.literal(true) : z.boolean();
  if (row.type === 'json') {
    const max = row.maxLength;
    return z
      .unknown()
      .refine((value) => value !== undefined && (max === undefined || JSON.stringify(value).length <= max), `at most ${max} characters of JSON`);
  }
  if (row.type === 'Array of string')
    return counted(z.array(stringSchema({ ...row, maxLength: undefined, minLength: undefined, length: undefined }, options)), row);
  if (/^Array of \w+ object$/.test(row.type)) return counted(z.array(z.record(z.string(), z.unknown())), row);
  if (/^\w+ object$/.test(row.type)) return z.record(z.string(), z.unknown());
  throw new Error(`field ${row.name}: no schema for the documented type "${row.type}"`);
}

function counted(array: z.ZodArray<z.ZodType>, row: FieldRow): z.ZodType {
  let schema = array;
  if (row.minLength !== undefined) schema = schema.min(row.minLength);
  if (row.maxLength !== undefined) schema = schema.max(row.maxLength);
  return schema;
}

function stringSchema(row: FieldRow, options: SchemaOptions): z.ZodType<string> {
  let schema = z.string();
  if (row.length !== undefined) schema = schema.length(row.length);
  if (row.minLength !== undefined) schema = schema.min(row.minLength);
  if (row.maxLength !== undefined) schema = schema.max(row.maxLength);
  if (row.regexp !== undefined) schema = schema.regex(new RegExp(row.regexp), `does not match ${row.regexp}`);
  const allowed = row.enum ? expandEnum(row.enum) : undefined;
  const format = row.format ? formatCheck(row.format, options) : undefined;
  return schema
    .refine((value) => !allowed || allowed.has(value), { message: `not one of ${row.enum?.join(', ')}` })
    .refine((value) => !format || format(value), { message: `not a valid ${row.format}` });
}

/** `80-99` stands for every two-digit value from 80 to 99 (the tables' "reserved" ranges). */
export function expandEnum(values: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const value of values) {
    const range = /^(\d{2})-(\d{2})$/.exec(value);
    if (!range) {
      out.add(value);
      continue;
    }
    for (let n = Number(range[1]); n <= Number(range[2]); n++) out.add(String(n).padStart(2, '0'));
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** specification_common.rst "currency": ISO 4217 numeric codes these may not be. */
const EXCLUDED_CURRENCIES = new Set(['955', '956', '957', '958', '959', '960', '961', '962', '963', '964', '999']);
/** server-information.rst lists 2.1.0, 2.2.0 and 2.3.1 (the "Valid Version" list predates 2.3.1). */
const VALID_VERSIONS = new Set(['2.1.0', '2.2.0', '2.3.1']);

function formatCheck(format: FieldFormat, options: SchemaOptions): (value: string) => boolean {
  switch (format) {
    case 'uuid':
      return (value) => UUID.test(value);
    case 'ip':
      return (value) => isIP(value) !== 0;
    case 'url':
      return (value) => urlWith(value, ['https:', 'http:']);
    case 'urlHttps':
      return (value) => urlWith(value, ['https:']) || (options.loopbackHttpAllowed === true && isLoopbackHttp(value));
    case 'email':
      return (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'yymm':
      return (value) => /^\d{2}(0[1-9]|1[0-2])$/.test(value);
    case 'yyyymmdd':
      return (value) => /^\d{8}$/.test(value) && validDate(value, '000000');
    case 'yyyymmddhhmmss':
      return (value) => /^\d{14}$/.test(value) && validDate(value.slice(0, 8), value.slice(8));
    case 'countryCode':
      return (value) => /^\d{3}$/.test(value) && Number(value) < 901;
    case 'currency':
      return (value) => /^\d{3}$/.test(value) && !EXCLUDED_CURRENCIES.has(value);
    case 'validVersion':
      return (value) => VALID_VERSIONS.has(value);
  }
}

function urlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isLoopbackHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]');
  } catch {
    return false;
  }
}

function validDate(ymd: string, hms: string): boolean {
  const [y, mo, d, h, mi, s] = [ymd.slice(0, 4), ymd.slice(4, 6), ymd.slice(6, 8), hms.slice(0, 2), hms.slice(2, 4), hms.slice(4, 6)].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

type Condition = (message: Record<string, unknown>) => boolean;

/** The simple forms of a "Required if" clause; undefined for a compound one (its row is not enforced). */
export function parseClause(clause: string): Condition | undefined {
  let m = /^(\w+) is true$/.exec(clause);
  if (m) return (message) => message[m![1]!] === true;
  m = /^(\w+) is "([^"]*)"$/.exec(clause);
  if (m) return (message) => message[m![1]!] === m![2];
  m = /^(\w+) is not "([^"]*)"$/.exec(clause);
  if (m) return (message) => message[m![1]!] !== m![2];
  m = /^(\w+) is one of \[([^\]]*)\]$/.exec(clause);
  if (m) {
    const values = m[2]!.split(',').map((v) => v.trim());
    const field = m[1]!;
    return (message) => typeof message[field] === 'string' && values.includes(message[field] as string);
  }
  m = /^(\w+) is not empty$/.exec(clause);
  if (m) return (message) => message[m![1]!] !== undefined && message[m![1]!] !== '';
  return undefined;
}
