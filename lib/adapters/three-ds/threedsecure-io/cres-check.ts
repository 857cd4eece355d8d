import type { ChallengeReference, CresCheck } from '../../../core/ports/three-ds-server.js';
import { decodeJsonBase64Url } from './base64url.js';
import { builtOnFirstUse } from './field-tables/built-on-first-use.js';
import { schemaOf } from './field-tables/field-schema.js';
import { CRES } from './field-tables/cres.js';
import type { MessageVersion } from './field-tables/tables.js';

/**
 * The CRes the ACS posted through the browser (challenge_flow.rst "Receiving challenge
 * results"; cres_220 / cres_231): base64url, possibly padded. It only tells which challenge
 * ended; whether it names this one is all it is used for. Its transStatus is reported so a
 * contradiction with the RReq can be logged — a forged or altered CRes proves nothing.
 */
export function checkCres(cres: string, challenge: ChallengeReference): CresCheck {
  const message = decodeJsonBase64Url(cres);
  const parsed = cresSchema(challenge.messageVersion).safeParse(message);
  if (!parsed.success) return { kind: 'malformed' };
  const { threeDSServerTransID, acsTransID, transStatus } = parsed.data as { threeDSServerTransID: string; acsTransID: string; transStatus: string };
  if (threeDSServerTransID !== challenge.transactionId || acsTransID !== challenge.acsTransactionId) return { kind: 'other-challenge' };
  return { kind: 'matches', transStatus };
}

const FIELDS = ['messageType', 'messageVersion', 'threeDSServerTransID', 'acsTransID', 'transStatus'];
const cresSchema = builtOnFirstUse((version: MessageVersion) => schemaOf(CRES[version], { unknownFields: 'keep', only: FIELDS }));
