import { AREQ_220 } from './areq-220.js';
import { AREQ_231 } from './areq-231.js';
import { ARES_220 } from './ares-220.js';
import { ARES_231 } from './ares-231.js';
import { CRD } from './crd.js';
import { ERRO_220 } from './erro-220.js';
import { ERRO_231 } from './erro-231.js';
import { withExampleRows, type FieldRow, type FieldTable, type MessageVersion } from './field-table.js';
import { RREQ_220 } from './rreq-220.js';
import { RREQ_231 } from './rreq-231.js';

export { MESSAGE_VERSIONS, type MessageVersion } from './field-table.js';

/**
 * threeDSRequestorID and threeDSRequestorName are in no AReq table, but the documentation's
 * own AReq example sends them (source/decoupled_authentication.rst, "Example AReq, valid for
 * 2.2.0"); the schemes assign them per requestor (Visa and Mastercard each their own), so the
 * service sends them. Lengths from EMV 3DS 2.2 (Table A.1: an…35 and an…40).
 */
const REQUESTOR_ROWS: readonly FieldRow[] = [
  { name: 'threeDSRequestorID', type: 'string', inclusion: 'Optional', maxLength: 35, documentedBy: 'decoupled_authentication.rst, Example AReq' },
  { name: 'threeDSRequestorName', type: 'string', inclusion: 'Optional', maxLength: 40, documentedBy: 'decoupled_authentication.rst, Example AReq' },
];

/**
 * The CRD's per-ACS and per-DS version lists are in the preauth example (source/preauth.rst,
 * "/preauth example response", added 2024-09-17 per changelog.rst), not in the table.
 */
const CRD_EXAMPLE_ROWS: readonly FieldRow[] = [
  { name: 'acsProtocolVersions', type: 'Array of AcsProtocolVersion object', inclusion: 'Optional', documentedBy: 'preauth.rst, /preauth example response' },
  { name: 'dsProtocolVersions', type: 'Array of string', inclusion: 'Optional', documentedBy: 'preauth.rst, /preauth example response' },
  { name: 'threeDSServerProtocolVersions', type: 'Array of string', inclusion: 'Optional', documentedBy: 'preauth.rst, /preauth example response' },
];

export const AREQ: Readonly<Record<MessageVersion, FieldTable>> = {
  '2.2.0': withExampleRows(AREQ_220, REQUESTOR_ROWS),
  '2.3.1': withExampleRows(AREQ_231, REQUESTOR_ROWS),
};
export const ARES: Readonly<Record<MessageVersion, FieldTable>> = { '2.2.0': ARES_220, '2.3.1': ARES_231 };
export const RREQ: Readonly<Record<MessageVersion, FieldTable>> = { '2.2.0': RREQ_220, '2.3.1': RREQ_231 };
export const ERRO: Readonly<Record<MessageVersion, FieldTable>> = { '2.2.0': ERRO_220, '2.3.1': ERRO_231 };
export const CRD_TABLE: FieldTable = withExampleRows(CRD, CRD_EXAMPLE_ROWS);
export { CRES } from './cres.js';
export { CREQ } from './creq.js';
export { POSTAUTH_REQUEST } from './postauth-request.js';
export { PREAUTH_REQUEST } from './preauth-request.js';
