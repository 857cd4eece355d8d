import { randomBytes, randomUUID } from 'node:crypto';
import { schemaOf } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js';
import { ARES, CRD_TABLE, CRES, ERRO, RREQ, type MessageVersion } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/tables.js';
import type { FieldTable } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/field-table.js';
import type { Transaction } from './transactions.js';

/**
 * The messages the fake sends, each checked against the published table before it leaves
 * (a fake that answered off-table would prove nothing about the client). Its own ACS is on
 * loopback HTTP, which 2.3.1's urlHttps is allowed to name here.
 */
const SCHEME: Record<string, string> = { visa: 'visa', mastercard: 'mastercard', amex: 'amex', protectbuy: 'discover' };
const OWN = { acsReferenceNumber: 'fake-3ds-acs', dsReferenceNumber: 'fake-3ds-ds', acsOperatorID: 'fake-3ds-acs' };

export function crd(transaction: Transaction): Record<string, unknown> {
  const versions = transaction.card.versions;
  const message = {
    messageType: 'CRD',
    threeDSServerTransID: transaction.threeDSServerTransID,
    acsStartProtocolVersion: versions[0],
    acsEndProtocolVersion: versions.at(-1),
    dsStartProtocolVersion: '2.1.0',
    dsEndProtocolVersion: '2.3.1',
    acsInfoInd: ['01', '02'],
    scheme: SCHEME[transaction.ds] ?? 'standin',
    ...(transaction.methodUrl ? { threeDSMethodURL: transaction.methodUrl } : {}),
    dsProtocolVersions: ['2.1.0', '2.2.0', '2.3.1'],
    acsProtocolVersions: versions.map((version) => ({
      version,
      acsInfoInd: ['01', '02'],
      ...(transaction.methodUrl ? { threeDSMethodURL: transaction.methodUrl } : {}),
    })),
    threeDSServerProtocolVersions: ['2.1.0', '2.2.0', '2.3.1'],
  };
  return checked(CRD_TABLE, message);
}

export interface AresInput {
  version: MessageVersion;
  transaction: Transaction;
  acsTransID: string;
  dsTransID: string;
  transStatus: string;
  acsURL?: string;
}

const REASONS: Record<string, string> = { N: '01', R: '11', U: '22' };

export function ares(input: AresInput): Record<string, unknown> {
  const { version, transStatus } = input;
  const method = version === '2.2.0' ? { authenticationType: '02' } : { authenticationMethod: ['02'] };
  const message = {
    messageType: 'ARes',
    messageVersion: version,
    threeDSServerTransID: input.transaction.threeDSServerTransID,
    acsTransID: input.acsTransID,
    dsTransID: input.dsTransID,
    ...OWN,
    transStatus,
    ...(transStatus === 'Y' || transStatus === 'A' ? { authenticationValue: authenticationValue(), eci: eci(input.transaction.ds, transStatus) } : {}),
    ...(REASONS[transStatus] ? { transStatusReason: REASONS[transStatus] } : {}),
    ...(transStatus === 'C' || transStatus === 'D' ? { acsChallengeMandated: 'N', ...method } : {}),
    ...(transStatus === 'C' ? { acsURL: input.acsURL } : {}),
    ...(transStatus === 'D'
      ? {
          acsDecConInd: 'Y',
          cardholderInfo: version === '2.2.0' ? 'Approve the payment in your banking app' : { text: 'Approve the payment in your banking app' },
        }
      : {}),
  };
  return checked(ARES[version as MessageVersion], message);
}

export function rreq(transaction: Transaction, transStatus: 'Y' | 'N', challengeCancel?: string): Record<string, unknown> {
  const auth = transaction.auth!;
  const version = auth.messageVersion as MessageVersion;
  const message = {
    messageType: 'RReq',
    messageVersion: version,
    messageCategory: '01',
    threeDSServerTransID: transaction.threeDSServerTransID,
    acsTransID: auth.acsTransID,
    dsTransID: auth.dsTransID,
    transStatus,
    interactionCounter: '01',
    ...(version === '2.2.0' ? { authenticationType: '02' } : { authenticationMethod: ['02'] }),
    ...(transStatus === 'Y' ? { authenticationValue: authenticationValue(), eci: eci(transaction.ds, 'Y') } : { transStatusReason: '01' }),
    ...(challengeCancel ? { challengeCancel } : {}),
  };
  return checked(RREQ[version], message);
}

export function cres(transaction: Transaction, transStatus: 'Y' | 'N'): Record<string, unknown> {
  const auth = transaction.auth!;
  const version = auth.messageVersion as MessageVersion;
  return checked(CRES[version], {
    messageType: 'CRes',
    messageVersion: version,
    threeDSServerTransID: transaction.threeDSServerTransID,
    acsTransID: auth.acsTransID,
    challengeCompletionInd: 'Y',
    transStatus,
  });
}

/** EMV Erro (erro_220 / erro_231); the fake speaks the version of the request, 2.2.0 when it has none. */
export function erro(
  version: string | undefined,
  error: { code: string; description: string; detail: string; messageType?: string; threeDSServerTransID?: string },
): Record<string, unknown> {
  const v: MessageVersion = version === '2.3.1' ? '2.3.1' : '2.2.0';
  return checked(ERRO[v], {
    messageType: 'Erro',
    messageVersion: v,
    errorCode: error.code,
    errorComponent: 'S',
    errorDescription: error.description,
    errorDetail: error.detail,
    ...(error.messageType || v === '2.3.1' ? { errorMessageType: error.messageType ?? 'Erro' } : {}),
    threeDSServerTransID: error.threeDSServerTransID ?? randomUUID(),
  });
}

/** A 20-byte value in base64: 28 characters, as the 2.2.0 table's authenticationValue (length 28). */
const authenticationValue = () => randomBytes(20).toString('base64');
const eci = (ds: string, transStatus: 'Y' | 'A') => (ds === 'mastercard' ? (transStatus === 'Y' ? '02' : '01') : transStatus === 'Y' ? '05' : '06');

const strict = new Map<FieldTable, ReturnType<typeof schemaOf>>();
function checked(table: FieldTable, message: Record<string, unknown>): Record<string, unknown> {
  let schema = strict.get(table);
  if (!schema) strict.set(table, (schema = schemaOf(table, { unknownFields: 'refuse', loopbackHttpAllowed: true })));
  const parsed = schema.safeParse(message);
  if (!parsed.success)
    throw new Error(
      `the fake built a ${String(message.messageType)} off the ${table.table} table: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return message;
}
