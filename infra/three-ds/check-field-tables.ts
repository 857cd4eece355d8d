import { isDeepStrictEqual } from 'node:util';
import {
  AREQ,
  ARES,
  CRD_TABLE,
  CREQ,
  CRES,
  ERRO,
  POSTAUTH_REQUEST,
  PREAUTH_REQUEST,
  RREQ,
} from '../../lib/adapters/three-ds/threedsecure-io/field-tables/tables.js';
import type { FieldRow, FieldTable } from '../../lib/adapters/three-ds/threedsecure-io/field-tables/field-table.js';
import { FIELD_TABLES_SOURCE } from '../../lib/adapters/three-ds/threedsecure-io/field-tables/source.js';
import { readDocTable } from './doc-field-tables.js';

/**
 * Dev-time check (not run in CI: the documentation is not committed here) that the field tables
 * transcribed in lib/adapters/three-ds/threedsecure-io/field-tables/ still say what 3dsecure.io's
 * documentation says:
 *
 *   npm run three-ds:check-tables -- /path/to/3DSv2-api-documentation
 *
 * Every row is compared (name, type, inclusion, lengths, regexp, enum, format, conditions);
 * rows marked `documentedBy` (from an example, not a table) are skipped. Exit 1 on a difference.
 */
const TABLES: FieldTable[] = [
  PREAUTH_REQUEST,
  CRD_TABLE,
  POSTAUTH_REQUEST,
  CREQ,
  ...Object.values(AREQ),
  ...Object.values(ARES),
  ...Object.values(RREQ),
  ...Object.values(CRES),
  ...Object.values(ERRO),
];

async function main(docRoot: string | undefined): Promise<number> {
  if (!docRoot) {
    process.stderr.write('usage: npm run three-ds:check-tables -- <path to a checkout of clearhaus/3DSv2-api-documentation>\n');
    return 2;
  }
  process.stdout.write(`transcribed from ${FIELD_TABLES_SOURCE.repository}@${FIELD_TABLES_SOURCE.commit}\n`);
  let differences = 0;
  for (const table of TABLES) {
    const documented = await readDocTable(docRoot, table.table);
    const ours = table.rows.filter((row) => !row.documentedBy);
    const problems = compare(ours, documented);
    differences += problems.length;
    process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'DIFF'} ${table.table} (${ours.length} rows)\n`);
    for (const problem of problems) process.stdout.write(`     ${problem}\n`);
  }
  process.stdout.write(differences === 0 ? 'the transcription matches the documentation\n' : `${differences} difference(s)\n`);
  return differences === 0 ? 0 : 1;
}

function compare(ours: readonly FieldRow[], documented: readonly FieldRow[]): string[] {
  const problems: string[] = [];
  const byName = new Map(documented.map((row) => [row.name, row]));
  for (const row of ours) {
    const doc = byName.get(row.name);
    if (!doc) {
      problems.push(`${row.name}: not in the documentation's table`);
      continue;
    }
    if (!isDeepStrictEqual(normal(row), normal(doc)))
      problems.push(`${row.name}: ours ${JSON.stringify(normal(row))} ≠ documented ${JSON.stringify(normal(doc))}`);
  }
  for (const doc of documented) if (!ours.some((row) => row.name === doc.name)) problems.push(`${doc.name}: documented, not transcribed`);
  return problems;
}

/** The row without undefined members, so that key order and absence compare equal. */
const normal = (row: FieldRow) => JSON.parse(JSON.stringify(row)) as unknown;

process.exitCode = await main(process.argv[2]);
