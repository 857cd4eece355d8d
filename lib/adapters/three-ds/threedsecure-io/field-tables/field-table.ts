/**
 * One row of a field table of 3dsecure.io's API reference, as published (source.ts): the
 * field's name, the documented type string, its inclusion for a browser payment
 * (deviceChannel 02, messageCategory 01), and the documented requirements. Rows are data, not
 * code, so that infra/three-ds/check-field-tables.ts can compare them with the documentation
 * row by row; field-schema.ts turns a table into a zod schema.
 */
export interface FieldRow {
  name: string;
  /** The documentation's type string: `string`, `bool`, `json`, `Array of string`, `<Name> object`, `Array of <Name> object`. */
  type: string;
  inclusion: 'Required' | 'Optional' | 'Conditional';
  /** Characters for a string, items for an array. */
  maxLength?: number;
  minLength?: number;
  length?: number;
  regexp?: string;
  /** Allowed values; `80-99` is a range of two-digit values. */
  enum?: readonly string[];
  format?: FieldFormat;
  /**
   * The documentation's "Required if …" clauses for a browser payment, verbatim; all of them
   * must hold (a table's scenario variant lists the clauses that remain once the scenario's own
   * are resolved: infra/three-ds/doc-field-tables.ts). field-schema.ts enforces the simple forms
   * (`F is true`, `F is "V"`, `F is not "V"`, `F is one of [a, b]`, `F is not empty`); a row
   * with a compound clause is kept for the record and not enforced.
   */
  requiredIf?: readonly string[];
  /**
   * Set on a row that is not in the table but in one of the documentation's examples (where it
   * says); the transcription check skips it.
   */
  documentedBy?: string;
}

export type FieldFormat = 'uuid' | 'ip' | 'url' | 'urlHttps' | 'email' | 'yymm' | 'yyyymmdd' | 'yyyymmddhhmmss' | 'countryCode' | 'currency' | 'validVersion';

export interface FieldTable {
  /** The file stem under `source/_static/` of the documentation. */
  table: string;
  rows: readonly FieldRow[];
}

/** A table with rows added that the documentation shows only in an example (documentedBy). */
export function withExampleRows(table: FieldTable, rows: readonly FieldRow[]): FieldTable {
  return { table: table.table, rows: [...table.rows, ...rows] };
}

/** The protocol versions this adapter speaks (EMV 3DS 2.2 browser flow; 2.1.0 is not offered). */
export const MESSAGE_VERSIONS = ['2.2.0', '2.3.1'] as const;
export type MessageVersion = (typeof MESSAGE_VERSIONS)[number];
