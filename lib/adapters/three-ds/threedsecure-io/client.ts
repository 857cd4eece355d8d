import type * as z from 'zod';
import { ThreeDsServerCallError } from '../../../core/ports/three-ds-server-error.js';
import { builtOnFirstUse } from './field-tables/built-on-first-use.js';
import { schemaOf } from './field-tables/field-schema.js';
import { ARES, CRD_TABLE, MESSAGE_VERSIONS, RREQ, type MessageVersion } from './field-tables/tables.js';
import { postJson } from './http.js';

/**
 * A thin typed client of 3dsecure.io's three endpoints (getting-started.rst "URL Endpoints"):
 * /preauth, /auth, /postauth. It sends what it is given and checks the fields it reads against
 * the published tables (field-tables/); anything else the server adds passes. It decides
 * nothing: server.ts maps answers to the port's outcomes.
 */
export interface ClientOptions {
  /** https://service.3dsecure.io (production) or https://service.sandbox.3dsecure.io (server-information.rst). */
  baseUrl: string;
  /** The API key, or how to get it (read from a secret, cached by the caller); never logged. */
  apiKey: string | (() => Promise<string>);
  fetch?: typeof fetch;
  /** Accept a loopback http acsURL where 2.3.1 says https (a local demo against the fake); never in production. */
  loopbackHttpAllowed?: boolean;
}

export type Crd = {
  messageType: 'CRD';
  threeDSServerTransID: string;
  threeDSMethodURL?: string;
  acsStartProtocolVersion: string;
  acsEndProtocolVersion: string;
  dsStartProtocolVersion?: string;
  dsEndProtocolVersion?: string;
};
export type Ares = Record<string, unknown> & {
  messageVersion: MessageVersion;
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  transStatus: string;
  transStatusReason?: string;
  authenticationValue?: string;
  eci?: string;
  acsURL?: string;
  acsChallengeMandated?: string;
};
export type Rreq = Record<string, unknown> & {
  messageVersion: MessageVersion;
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  transStatus: string;
  transStatusReason?: string;
  authenticationValue?: string;
  eci?: string;
  challengeCancel?: string;
};

/** What /preauth's CRD is read with (the fields this client uses), built at the first /preauth. */
let crdReader: z.ZodType<Crd> | undefined;
const crdSchema = () =>
  (crdReader ??= schemaOf(CRD_TABLE, {
    unknownFields: 'keep',
    only: [
      'messageType',
      'threeDSServerTransID',
      'threeDSMethodURL',
      'acsStartProtocolVersion',
      'acsEndProtocolVersion',
      'dsStartProtocolVersion',
      'dsEndProtocolVersion',
    ],
  }) as z.ZodType<Crd>);

const ARES_FIELDS = [
  'messageType',
  'messageVersion',
  'threeDSServerTransID',
  'acsTransID',
  'dsTransID',
  'transStatus',
  'transStatusReason',
  'authenticationValue',
  'eci',
  'acsURL',
  'acsChallengeMandated',
];
const RREQ_FIELDS = [
  'messageType',
  'messageVersion',
  'threeDSServerTransID',
  'acsTransID',
  'dsTransID',
  'transStatus',
  'transStatusReason',
  'authenticationValue',
  'eci',
  'challengeCancel',
];
type Variant = 'published' | 'loopback';
/** The ARes and RReq readers per version and variant, each built at its first answer. */
const aresReader = builtOnFirstUse((key: `${MessageVersion} ${Variant}`) => {
  const [version, variant] = key.split(' ') as [MessageVersion, Variant];
  return schemaOf(ARES[version], { unknownFields: 'keep', only: ARES_FIELDS, conditions: 'ignore', loopbackHttpAllowed: variant === 'loopback' });
});
const rreqReader = builtOnFirstUse((key: `${MessageVersion} ${Variant}`) => {
  const [version, variant] = key.split(' ') as [MessageVersion, Variant];
  return schemaOf(RREQ[version], { unknownFields: 'keep', only: RREQ_FIELDS, conditions: 'ignore', loopbackHttpAllowed: variant === 'loopback' });
});

export class ThreeDSecureIoClient {
  private readonly variant: Variant;

  constructor(private readonly options: ClientOptions) {
    this.variant = options.loopbackHttpAllowed ? 'loopback' : 'published';
  }

  /** preauth.rst: the card range's CRD. An Erro (e.g. 305 "Unknown BIN": not enrolled) throws kind `erro`. */
  async preauth(request: { acctNumber: string; ds?: string }, signal: AbortSignal): Promise<Crd> {
    const answer = await this.call('/preauth', request, signal);
    return read('/preauth', crdSchema(), answer);
  }

  /** auth.rst: sends the AReq once and reads the ARes of the same transaction and version. */
  async auth(areq: Record<string, unknown> & { threeDSServerTransID: string; messageVersion: MessageVersion }, signal: AbortSignal): Promise<Ares> {
    const answer = await this.call('/auth', areq, signal);
    const ares = read('/auth', aresReader(`${areq.messageVersion} ${this.variant}`), answer) as Ares;
    if (ares.threeDSServerTransID !== areq.threeDSServerTransID) throw unusable('/auth', 'an ARes of another transaction');
    return ares;
  }

  /** postauth.rst: the RReq the 3DS Server received for the transaction. */
  async postauth(threeDSServerTransID: string, signal: AbortSignal): Promise<Rreq> {
    const answer = await this.call('/postauth', { threeDSServerTransID }, signal);
    const version = answer.messageVersion;
    if (!isSupportedVersion(version)) throw unusable('/postauth', 'an RReq of an unsupported version');
    const rreq = read('/postauth', rreqReader(`${version} ${this.variant}`), answer) as Rreq;
    if (rreq.threeDSServerTransID !== threeDSServerTransID) throw unusable('/postauth', 'an RReq of another transaction');
    return rreq;
  }

  private call(endpoint: '/preauth' | '/auth' | '/postauth', body: Record<string, unknown>, signal: AbortSignal) {
    return postJson({
      baseUrl: this.options.baseUrl,
      apiKey: this.options.apiKey,
      endpoint,
      body,
      signal,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
  }
}

export function isSupportedVersion(value: unknown): value is MessageVersion {
  return typeof value === 'string' && (MESSAGE_VERSIONS as readonly string[]).includes(value);
}

/** A 200 whose message breaks the table: processed, unusable. Only field paths are kept (never values). */
function read<T>(endpoint: string, schema: z.ZodType<T>, answer: Record<string, unknown>): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
  throw unusable(endpoint, `an answer that breaks the published table (${fields})`);
}

const unusable = (endpoint: string, reason: string) => new ThreeDsServerCallError('maybe-sent', endpoint, { status: 200, reason });
