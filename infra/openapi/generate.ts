/**
 * `npm run openapi` — writes docs/openapi.json from the zod schemas the handlers validate
 * with and the strict response schemas the tests check responses against, so the document
 * cannot drift from the code (test/unit/openapi.test.ts regenerates and compares).
 */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import { type RouteName, type RouteTableEntry, routes } from '../../lib/http/routes.js';
import { componentSchemas, type NAMED_SCHEMAS, schemaName, schemaOrRef, ref } from './components.js';
import { EXAMPLES, RETRYABLE_PROBLEM_EXAMPLE } from './examples.js';
import { checkoutRequestSchema } from '../../lib/core/checkout/sdk-result.js';
import { payerIpQuery } from '../../lib/http/payment-request.js';
import { paymentMethodsBody } from '../../lib/http/payment-methods-schema.js';
import * as resources from '../../lib/http/resource-schemas.js';
import * as webhookResources from '../../lib/http/webhook-resource-schemas.js';
import { onboardingBody } from '../../functions/put-merchant-config/schema.js';
import { createOrderBody } from '../../functions/create-order/schema.js';
import { directWalletBody } from '../../functions/pay-direct/schema.js';
import { completeThreeDsBody } from '../../functions/complete-3ds/schema.js';
import { webhookConfigBody } from '../../functions/put-webhook-config/schema.js';
import { operationBody } from '../../lib/http/operation-body.js';
import { eventsQuery } from '../../functions/list-events/query.js';
import { createPaymentLinkBody } from '../../functions/create-payment-link/schema.js';

type Schema = z.ZodType;

/**
 * What the route table (lib/http/routes.ts) does not say about an API operation: its prose,
 * schemas and answers. Method, path, operationId, the Idempotency-Key parameter and the
 * session-token note come from the table entry, one operation per route of the entry.
 */
interface OperationDoc {
  summary: string;
  /** Who may call it, in words (the table's `access` is what the edge enforces). */
  access: string;
  body?: Schema;
  /** The body may be left out (4.11, 4.13). */
  bodyOptional?: true;
  query?: Schema;
  ok: { status: number; schema: Schema; headers?: Record<string, string> };
  errors: number[];
  /** Only when the path rule of `TAGS` does not fit. */
  tag?: string;
}

/** The table entries served by apiHandler (those with an `access`): the JSON API, every one documented. */
type ApiRouteName = { [K in RouteName]: (typeof routes)[K] extends { access: unknown } ? K : never }[RouteName];

interface Operation extends OperationDoc {
  method: 'get' | 'put' | 'post';
  path: string;
  operationId: string;
  /** The route honours Idempotency-Key (its table entry says `idempotency: 'supported'`). */
  idempotent: boolean;
  /** A hosted-session token may call it (its table entry says `sessionTokens: 'allowed'`). */
  sessionTokens: boolean;
}

const MANAGE_WEBHOOKS =
  'platform token, or MANAGE_WEBHOOKS with the whole merchant in scope (a token narrowed to outlets only when it names every outlet the merchant has; otherwise 404)';
const common = [400, 401, 403, 404, 413, 415, 500, 503];
/** Answers that may carry Retry-After (docs/integrating/payment-processing.md: Deadlines, Exactly once). */
const RETRYABLE: ReadonlySet<number> = new Set([409, 502, 503]);
const docs = {
  getMerchantConfig: {
    summary: '4.1 Merchant Click to Pay configuration',
    access: 'any valid token whose scope covers the merchant (an outlet-narrowed token: only merchants owning one of its outlets)',
    ok: { status: 200, schema: resources.merchantConfigResource },
    errors: [401, 404, 503],
  },
  putMerchantConfig: {
    summary: '4.7 Onboard or replace a merchant',
    access: 'platform token',
    body: onboardingBody,
    ok: { status: 200, schema: resources.merchantConfigResource },
    errors: [...common, 409],
  },
  getEncryptionKeys: {
    summary: '4.2 Payload encryption keys (JWKS, current first)',
    access: 'VIEW_UCTP_WALLET_CERTIFICATE',
    ok: { status: 200, schema: resources.encryptionKeysResource, headers: { 'Cache-Control': 'max-age=300' } },
    errors: [401, 403, 503],
  },
  putPlatformPaymentMethods: {
    summary: '4.5 Platform enablement (idempotent upsert)',
    access: 'platform token',
    body: paymentMethodsBody,
    ok: { status: 200, schema: resources.paymentMethodsResource },
    errors: [...common],
  },
  getPlatformPaymentMethods: {
    summary: '4.5 Platform enablement',
    access: 'platform token',
    ok: { status: 200, schema: resources.paymentMethodsResource },
    errors: [401, 403, 503],
  },
  putTenantPaymentMethods: {
    summary: '4.6 Tenant enablement (idempotent upsert)',
    access: 'platform token',
    body: paymentMethodsBody,
    ok: { status: 200, schema: resources.paymentMethodsResource },
    errors: [...common, 409],
  },
  getTenantPaymentMethods: {
    summary: '4.6 Tenant enablement',
    access: 'platform token',
    ok: { status: 200, schema: resources.paymentMethodsResource },
    errors: [400, 401, 403, 503],
  },
  createOrder: {
    summary: '4.8 Create an order (with a returnUrl: and its hosted payment page)',
    access: 'CREATE_ORDER, outlet in scope',
    body: createOrderBody,
    ok: { status: 201, schema: resources.createdOrderResource },
    errors: [...common, 422],
  },
  getOrder: {
    summary: '4.8 Read an order',
    access: 'VIEW_ORDER, outlet in scope',
    ok: { status: 200, schema: resources.orderResource },
    errors: [400, 401, 403, 404, 503],
  },
  createHostedSession: {
    summary: '4.9 Create a hosted session',
    access: 'CREATE_ORDER, outlet in scope',
    ok: { status: 201, schema: resources.hostedSessionResource },
    errors: [...common, 409],
  },
  createPayment: {
    summary:
      'Hosted payment page: a new payment on the order after a retryable decline (the latest payment is FAILED with retryable: true; at most 5 payments; not once the order’s payment link was cancelled). No body; 201 with the order, the new STARTED payment last',
    access: 'a hosted-session token of the order, or CREATE_ORDER with the outlet in scope',
    ok: { status: 201, schema: resources.orderResource },
    errors: [...common, 409],
  },
  createPaymentLink: {
    summary: '4.14 Create a payment link (expiresAt: default 7 days, at most 30; 403 CLICK_TO_PAY_NOT_ENABLED unless Click to Pay is effectively on)',
    access: 'CREATE_ORDER, outlet in scope',
    body: createPaymentLinkBody,
    ok: { status: 201, schema: resources.paymentLinkResource },
    errors: [...common, 422],
  },
  getPaymentLink: {
    summary: '4.14 Read a payment link (state ACTIVE, PAID, EXPIRED or CANCELLED as of now; orderRef once someone opened it)',
    access: 'VIEW_ORDER, outlet in scope',
    ok: { status: 200, schema: resources.paymentLinkResource },
    errors: [400, 401, 403, 404, 503],
  },
  cancelPaymentLink: {
    summary:
      '4.14 Cancel a payment link (only from ACTIVE and while no payment of it is in flight; 409 PAYMENT_STATE_CONFLICT otherwise). Once cancelled, no payment of the link’s order starts, whatever hosted session a shopper still holds',
    access: 'CREATE_ORDER, outlet in scope',
    ok: { status: 200, schema: resources.paymentLinkResource },
    errors: [...common, 409],
  },
  payClickToPay: {
    summary:
      '4.3 Pay with a Click to Pay checkout response. `browserInfo` (the shopper’s browser) is required when a production payment steps up through the 3DS Server (400 otherwise); the hosted page always sends it. A step-up answers AUTHORISED at once (frictionless), AWAIT_3DS (`threeDs.method` or the challenge) or FAILED THREE_DS_FAILED',
    access: 'CREATE_AUTHORIZATION, outlet in scope',
    body: checkoutRequestSchema,
    query: payerIpQuery,
    ok: { status: 200, schema: resources.paymentResource },
    errors: [...common, 409, 422, 502],
  },
  payDirect: {
    summary: '4.4 Pay with Direct Wallet data',
    access: 'CREATE_AUTHORIZATION, outlet in scope, DIRECT_WALLET enabled',
    body: directWalletBody,
    query: payerIpQuery,
    ok: { status: 200, schema: resources.paymentResource },
    errors: [...common, 409, 422, 502],
  },
  complete3ds: {
    summary:
      '4.10 Continue 3DS: `{threeDSCompInd, browserInfo}` after the 3DS Method (the payment showed `threeDs.method`), or `{cres}` after the challenge (the payment showed `threeDs.acsUrl` and `creq`); the verdict is the 3DS Server’s RReq, never the cres (docs/integrating/three-ds.md)',
    access: 'CREATE_AUTHORIZATION, outlet in scope',
    body: completeThreeDsBody,
    ok: { status: 200, schema: resources.paymentResource },
    errors: [...common, 409, 422, 502],
  },
  createCapture: {
    summary: '4.11 Capture (partial, several, or all that is left when the body is omitted)',
    access: 'CREATE_CAPTURE, outlet in scope',
    body: operationBody,
    bodyOptional: true,
    ok: { status: 201, schema: resources.paymentResource },
    errors: [...common, 409, 422, 502],
  },
  createReversal: {
    summary: '4.12 Reverse (void) an authorization with nothing captured',
    access: 'CREATE_REVERSAL, outlet in scope',
    ok: { status: 200, schema: resources.paymentResource },
    errors: [...common, 409, 502],
  },
  createRefund: {
    summary: '4.13 Refund (partial, several, or all that is captured and not refunded when the body is omitted)',
    access: 'CREATE_REFUND, outlet in scope',
    body: operationBody,
    bodyOptional: true,
    ok: { status: 201, schema: resources.paymentResource },
    errors: [...common, 409, 422, 502],
  },
  listEvents: {
    summary: '4.15 The merchant’s events with their delivery attempts (oldest first, paged)',
    access: MANAGE_WEBHOOKS,
    query: eventsQuery,
    ok: { status: 200, schema: webhookResources.merchantEventsResource },
    errors: [400, 401, 403, 404, 500, 503],
  },
  redeliverEvent: {
    summary: '4.15 Deliver an event again (from the start of the retry schedule)',
    access: MANAGE_WEBHOOKS,
    ok: { status: 202, schema: webhookResources.redeliveryResource },
    errors: common,
  },
  putWebhookConfig: {
    summary: '4.15 Set the webhook URL (the first PUT creates the signing secret and shows it once)',
    access: MANAGE_WEBHOOKS,
    body: webhookConfigBody,
    ok: { status: 200, schema: webhookResources.webhookConfigPutResource },
    errors: common,
  },
  getWebhookConfig: {
    summary: '4.15 Read the webhook configuration (never a secret)',
    access: MANAGE_WEBHOOKS,
    ok: { status: 200, schema: webhookResources.webhookConfigResource },
    errors: [400, 401, 403, 404, 500, 503],
  },
  rotateWebhookSecret: {
    summary: '4.15 Rotate the signing secret (the previous one signs for 24 h more)',
    access: MANAGE_WEBHOOKS,
    ok: { status: 200, schema: webhookResources.webhookSecretRotationResource },
    errors: common,
  },
} satisfies Record<ApiRouteName, OperationDoc>;

/**
 * The operations, one per route of each documented table entry, in the order of `docs`. A
 * function serving a second verb on the same path (4.5/4.6 take PUT and POST) gets the verb
 * appended to its operationId for that one (`putPlatformPaymentMethodsPost`): one name per
 * endpoint across the route table, the IAM roles, the logs and the generated clients.
 */
function operations(): Operation[] {
  return (Object.entries(docs) as [ApiRouteName, OperationDoc][]).flatMap(([name, doc]) => {
    const entry: RouteTableEntry = routes[name];
    return entry.routes.map((route, index) => {
      const [method, path] = route.split(' ') as [string, string];
      const verb = method.toLowerCase() as Operation['method'];
      const first = entry.routes.findIndex((other) => other.endsWith(` ${path}`)) === index;
      return {
        ...doc,
        method: verb,
        path,
        operationId: first ? name : `${name}${verb[0]!.toUpperCase()}${verb.slice(1)}`,
        idempotent: entry.idempotency === 'supported',
        sessionTokens: entry.sessionTokens === 'allowed',
      };
    });
  });
}

/** SPEC §1: every route refuses a hosted-session token with 403 PERMISSION_DENIED unless its entry allows it. */
const sessionTokenNote = (op: Operation) =>
  op.sessionTokens
    ? ' A hosted-session token may call it for its own order and merchant.'
    : ' Access tokens only: a hosted-session token gets 403 PERMISSION_DENIED.';

/** SPEC 4.13 (docs/integrating/idempotency-key.md). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Optional. The same key (scoped to the caller’s tenant, the platform, or a hosted session’s order) with the same method, path, query and body within 24 h answers the stored 2xx status and body again with Idempotent-Replayed: true; with another request → 422 IDEMPOTENCY_KEY_REUSED; while the first is still running → 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: the seconds until the first one can have finished (its in-progress record expires). Errors are not stored: the same key may be retried. Use a random UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$', example: '3f0c1a52-8f0e-4b7e-9d51-2f6f3c1e9a10' },
};
const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '"true" when this is the stored response of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

const json = (schema: Schema) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** Tags by path, first match wins; an operation may name its own with `tag`. */
const TAGS: { name: string; description: string; path: RegExp }[] = [
  { name: 'Payment links', description: 'SPEC 4.14: links a shopper opens to pay (Direct API payment link generation)', path: /\/payment-links/ },
  { name: 'Payments', description: 'SPEC 4.3, 4.4, 4.10–4.13: pay an order, 3DS, capture, reverse, refund', path: /\/payments\// },
  { name: 'Orders', description: 'SPEC 4.8, 4.9: orders and hosted checkout sessions', path: /^\/transactions\// },
  { name: 'Webhooks', description: 'SPEC 4.15: webhook configuration, events and redelivery', path: /\/(configs\/webhooks|events)/ },
  { name: 'Enablement', description: 'SPEC 4.5, 4.6: platform and tenant payment-method switches', path: /\/configs\/payment-methods$/ },
  { name: 'Merchant configuration', description: 'SPEC 4.1, 4.2, 4.7: onboarding, Click to Pay configuration, payload encryption keys', path: /^\/config\// },
];
const tagOf = (op: Operation) => op.tag ?? TAGS.find((tag) => tag.path.test(op.path))?.name;

/** A media type object: the schema (a `$ref` when it is named) and its example, if any. */
const media = (schema: Schema) => {
  const name = schemaName(schema) as keyof typeof NAMED_SCHEMAS | undefined;
  const example = name ? EXAMPLES[name] : undefined;
  return { schema: schemaOrRef(schema), ...(example === undefined ? {} : { example }) };
};

/** The payment link's public page (SPEC 4.14): no token, HTML, never JSON. */
const PAY_PAGE = {
  tags: ['Payment links'],
  summary: '4.14 Open a payment link (public; what the shopper’s browser opens)',
  description:
    'No token. An active link: 303 to the hosted checkout page with a fresh hosted session for the link’s one order (created on the first open, reused while unpaid). Otherwise an HTML page in the checkout page’s style: 410 for an expired, cancelled or already paid link, 404 for an unknown one, 503 while a dependency is down.',
  security: [],
  parameters: [{ name: 'linkRef', in: 'path', required: true, schema: { type: 'string', pattern: '^pl_[A-Za-z0-9_-]{22}$' } }],
  responses: {
    303: { description: 'To the hosted checkout page', headers: { Location: { description: '{base_url}/checkout?session=…', schema: { type: 'string' } } } },
    404: { description: 'Unknown link (HTML page)', content: { 'text/html': { schema: { type: 'string' } } } },
    410: { description: 'Expired, cancelled or already paid (HTML page; PAYMENT_LINK_INACTIVE)', content: { 'text/html': { schema: { type: 'string' } } } },
    503: { description: 'Temporarily unavailable (HTML page), with Retry-After', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations()) {
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$' },
    }));
    const queryProps = op.query ? ((json(op.query).properties ?? {}) as Record<string, unknown>) : {};
    const queryParams = Object.entries(queryProps).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      tags: [tagOf(op)],
      summary: op.summary,
      description: `Requires: ${op.access}.${sessionTokenNote(op)}`,
      security: [{ bearer: [] }],
      parameters: [...pathParams, ...queryParams, ...(op.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [])],
      ...(op.body ? { requestBody: { required: !op.bodyOptional, content: { 'application/json': media(op.body) } } } : {}),
      responses: {
        [op.ok.status]: {
          description: 'Success',
          ...(op.ok.headers || op.idempotent
            ? {
                headers: {
                  ...Object.fromEntries(Object.entries(op.ok.headers ?? {}).map(([k, v]) => [k, { schema: { type: 'string', example: v } }])),
                  ...(op.idempotent ? REPLAYED_HEADER : {}),
                },
              }
            : {}),
          content: { 'application/json': media(op.ok.schema) },
        },
        ...Object.fromEntries(
          [...new Set([...op.errors, ...(op.idempotent ? [409, 422] : [])])]
            .sort()
            .map((status) => [status, { $ref: `#/components/responses/${RETRYABLE.has(status) ? 'RetryableProblem' : 'Problem'}` }]),
        ),
      },
    };
  }
  Object.assign(
    paths,
    pageOperation('payLinkPage', PAY_PAGE),
    pageOperation('threeDsNotification', THREE_DS_NOTIFICATION),
    pageOperation('threeDsMethodNotification', THREE_DS_METHOD_NOTIFICATION),
    PROCESSOR_PATHS,
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Click to Pay payment service',
      version: '1.0.0',
      description:
        'The contract is docs/SPEC.md; decisions where it is silent are in docs/decisions.md. Errors are RFC 9457 problem details whose `code` (the Problem schema lists them all) is what clients switch on.',
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'The service; locally `npm start` (PORT overrides 3000)',
        variables: { baseUrl: { default: 'http://localhost:3000', description: 'Origin of the deployment, no trailing slash (e.g. https://pay.example.com)' } },
      },
    ],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    components: {
      schemas: componentSchemas(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token (JWT) or a hosted-session token (hs_…).' } },
      responses: {
        Problem: { description: 'Problem details (SPEC §2)', content: { 'application/problem+json': { schema: ref('Problem'), example: EXAMPLES.Problem } } },
        RetryableProblem: {
          description:
            'Problem details (SPEC §2). 503 DEPENDENCY_UNAVAILABLE always, 409 PAYMENT_STATE_CONFLICT while a payment is held, 409 IDEMPOTENCY_KEY_IN_USE while a request with the same Idempotency-Key runs and 502 AUTHORIZATION_UNAVAILABLE after a timeout send Retry-After: retry the same request after it.',
          headers: { 'Retry-After': { description: 'Seconds to wait before retrying the same request', schema: { type: 'string', example: '1' } } },
          content: { 'application/problem+json': { schema: ref('Problem'), example: RETRYABLE_PROBLEM_EXAMPLE } },
        },
      },
    },
    paths,
  };
}

/**
 * Routes a browser reaches by a form POST, not API clients: no token, HTML answers. The 3DS
 * notification URL of the EMV 3DS 2.2 browser flow (SPEC 4.10, docs/integrating/three-ds.md).
 */
const THREE_DS_NOTIFICATION = {
  tags: ['Payments'],
  summary: '4.10 3DS notification URL (the ACS form-POSTs the final cres here, in the challenge frame)',
  description:
    'Public, no token. Answers a small HTML page that hands `cres` and `threeDSSessionData` to the checkout page that framed the challenge, by postMessage targeted at the service’s own origin; the page then calls 4.10. Nothing is read or changed here, and the cres proves nothing by itself. 400 (HTML) when a value is not base64url, 415 for another content type.',
  security: [],
  requestBody: {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          required: ['cres'],
          properties: {
            cres: { type: 'string', maxLength: 8192, pattern: '^[A-Za-z0-9_-]+={0,2}$', description: 'The final CRes, base64url JSON' },
            threeDSSessionData: {
              type: 'string',
              maxLength: 1024,
              pattern: '^[A-Za-z0-9_-]+={0,2}$',
              description: 'Returned unchanged from the creq POST',
            },
          },
        },
      },
    },
  },
  responses: {
    200: { description: 'The hand-over page', content: { 'text/html': { schema: { type: 'string' } } } },
    400: { description: 'Not a base64url cres (HTML)', content: { 'text/html': { schema: { type: 'string' } } } },
    415: { description: 'Not form-encoded (HTML)', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

/** The 3DS Method's notification URL (SPEC 4.17): the ACS's 3DS Method page form-POSTs its completion here. */
const THREE_DS_METHOD_NOTIFICATION = {
  tags: ['Payments'],
  summary: '4.17 3DS Method notification URL (the ACS’s 3DS Method page form-POSTs its completion here, in the hidden iframe)',
  description:
    'Public, no token. `threeDSMethodData` is base64url (padded or not) of `{"threeDSServerTransID": "<uuid>"}`. Answers a small HTML page that tells the checkout page which transaction’s 3DS Method completed, by postMessage `{type: "ctp-3ds-method", threeDSServerTransID}` targeted at the service’s own origin; the page then calls 4.10 with `threeDSCompInd: Y` (N after 10 s without it). Nothing is read or changed here. 400 (HTML) for anything else, 415 for another content type.',
  security: [],
  requestBody: {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          required: ['threeDSMethodData'],
          properties: {
            threeDSMethodData: { type: 'string', maxLength: 1024, pattern: '^[A-Za-z0-9_-]+={0,2}$', description: 'base64url JSON {threeDSServerTransID}' },
          },
        },
      },
    },
  },
  responses: {
    200: { description: 'The hand-over page', content: { 'text/html': { schema: { type: 'string' } } } },
    400: { description: 'Not a 3DS Method completion (HTML)', content: { 'text/html': { schema: { type: 'string' } } } },
    415: { description: 'Not form-encoded (HTML)', content: { 'text/html': { schema: { type: 'string' } } } },
  },
};

/** A page's one operation, at its table entry's route, named after the entry. */
function pageOperation(name: 'payLinkPage' | 'threeDsNotification' | 'threeDsMethodNotification', operation: object): Record<string, Record<string, unknown>> {
  const [method, path] = routes[name].routes[0].split(' ') as [string, string];
  return { [path]: { [method.toLowerCase()]: { operationId: name, ...operation } } };
}

/**
 * Routes a processor calls, not API clients: no bearer token, the processor's own format and
 * authentication (SPEC 4.16, docs/design/processors.md §5).
 */
const PROCESSOR_PATHS = {
  '/processors/adyen/notifications': {
    post: {
      operationId: 'adyenNotifications',
      tags: ['Payments'],
      summary: '4.16 Adyen standard notifications (webhooks): settle what Adyen decided later',
      description:
        'Called by Adyen, not by API clients; no bearer token. The body is Adyen’s standard notification (`{live, notificationItems: [{NotificationRequestItem}]}`, Adyen’s Webhooks-v1). Every item is verified with the HMAC key of the merchant whose Adyen merchant account (`merchantAccountCode`) it names — the key referenced by `processor.notificationHmacKeyArn` at onboarding; one item that fails (or names an account no merchant has) and the whole delivery is refused with 401, nothing stored. Each notification (`eventCode:pspReference:success`) is then stored once and applied once: AUTHORISATION settles a pending or parked authorization, CAPTURE / CANCELLATION / REFUND settle the pending operation named by `merchantReference`, CAPTURE_FAILED / REFUND_FAILED undo one, TECHNICAL_CANCEL voids the authorization; one about an operation the service does not know yet waits for it. Webhooks (4.15) follow the settled state. Answered `[accepted]`; 503 when a dependency did not answer (Adyen delivers again).',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['live', 'notificationItems'],
              properties: {
                live: { type: 'string', enum: ['true', 'false'] },
                notificationItems: {
                  type: 'array',
                  minItems: 1,
                  items: {
                    type: 'object',
                    required: ['NotificationRequestItem'],
                    properties: {
                      NotificationRequestItem: {
                        type: 'object',
                        required: ['pspReference', 'merchantAccountCode', 'merchantReference', 'amount', 'eventCode', 'eventDate', 'success', 'additionalData'],
                        properties: {
                          pspReference: { type: 'string' },
                          originalReference: { type: 'string' },
                          merchantAccountCode: { type: 'string' },
                          merchantReference: {
                            type: 'string',
                            description: 'The service’s reference: the paymentRef, or the capture/reversal/refund reference',
                          },
                          amount: { type: 'object', required: ['value', 'currency'], properties: { value: { type: 'integer' }, currency: { type: 'string' } } },
                          eventCode: { type: 'string', example: 'CAPTURE' },
                          eventDate: { type: 'string' },
                          success: { type: 'string', enum: ['true', 'false'] },
                          additionalData: {
                            type: 'object',
                            required: ['hmacSignature'],
                            properties: { hmacSignature: { type: 'string', description: 'Base64 HMAC-SHA256 of the item’s eight signed fields' } },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'Stored and applied (or waiting for its operation)',
          content: { 'text/plain': { schema: { type: 'string', enum: ['[accepted]'] } } },
        },
        400: { description: 'Not a standard notification', content: { 'text/plain': { schema: { type: 'string' } } } },
        401: { description: 'An item failed verification: nothing of the delivery was stored', content: { 'text/plain': { schema: { type: 'string' } } } },
        503: { description: 'A dependency did not answer: deliver again', content: { 'text/plain': { schema: { type: 'string' } } } },
      },
    },
  },
};

export const OPENAPI_PATH = new URL('../../docs/openapi.json', import.meta.url);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { parseCommandLine } = await import('../local/cli.js');
  parseCommandLine(
    'npm run openapi',
    'Usage: npm run openapi\n\nWrites docs/openapi.json from the zod schemas (test/unit/openapi.test.ts fails until it is rerun after a schema change).',
    {},
  );
  await writeFile(OPENAPI_PATH, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
  process.stdout.write(`wrote ${OPENAPI_PATH.pathname}\n`);
}
