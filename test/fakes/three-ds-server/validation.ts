import type * as z from 'zod';
import type { FieldIssueParams } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js';

/**
 * A refused request as EMV Erro codes (erro_220: 201 Required Data Element Missing, 203 Format
 * of one or more Data Elements is Invalid). The detail names the fields, never their values.
 */
export function erroOfIssues(issues: readonly z.core.$ZodIssue[]): { code: '201' | '203'; description: string; detail: string } {
  const missing = issues.filter(
    (issue) =>
      (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) ||
      (issue.code === 'custom' && (issue.params as FieldIssueParams | undefined)?.missing),
  );
  if (missing.length > 0) return { code: '201', description: 'Required Data Element Missing', detail: `missing: ${names(missing)}` };
  const unknown = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  const invalid = issues.filter((issue) => issue.code !== 'unrecognized_keys');
  const parts = [...(invalid.length ? [`invalid: ${names(invalid)}`] : []), ...(unknown.length ? [`not in the table: ${unknown.join(', ')}`] : [])];
  return { code: '203', description: 'Format of one or more Data Elements is Invalid according to the Specification', detail: parts.join('; ') };
}

const names = (issues: readonly z.core.$ZodIssue[]) => [...new Set(issues.map((issue) => issue.path.join('.')))].join(', ');
