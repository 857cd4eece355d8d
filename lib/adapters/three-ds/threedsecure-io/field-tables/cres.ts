import { CRES_220 } from './cres-220.js';
import { CRES_231 } from './cres-231.js';
import { withExampleRows, type FieldRow, type FieldTable, type MessageVersion } from './field-table.js';

/**
 * The final CRes tables, in a module of their own: checking a CRes (../cres-check.ts) is the one
 * part of the adapter a payment function loads at its cold start (../on-first-use.ts), and it
 * needs these alone, not the AReq's, ARes's, RReq's and CRD's.
 *
 * challengeCompletionInd is listed for the app channel only, yet the browser CRes example
 * carries it (source/challenge_flow.rst, "Example CRes"; changelog.rst 2020-09-17 fixed its name).
 */
const CRES_EXAMPLE_ROWS: readonly FieldRow[] = [
  { name: 'challengeCompletionInd', type: 'string', inclusion: 'Optional', enum: ['Y', 'N'], documentedBy: 'challenge_flow.rst, Example CRes' },
];

export const CRES: Readonly<Record<MessageVersion, FieldTable>> = {
  '2.2.0': withExampleRows(CRES_220, CRES_EXAMPLE_ROWS),
  '2.3.1': withExampleRows(CRES_231, CRES_EXAMPLE_ROWS),
};
