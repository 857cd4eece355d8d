'use strict';

const { refuse } = require('./refusal.cjs');

/**
 * One IAM role per access group (the `role` of each function in the route table, lib/http/routes.ts).
 * Every role gets exactly what its functions call, nothing with `Resource: '*'`:
 *
 * | group           | DynamoDB                                                                | KMS (payload keys)                         |
 * |-----------------|-------------------------------------------------------------------------|--------------------------------------------|
 * | public          | —                                                                       | —                                          |
 * | sandboxAcs      | Sandbox only (below): its transactions `SANDBOX_ACS#…`; no bearer token, no Sessions | —                        |
 * | sandboxSrc      | Sandbox only (below): its sessions, limits and ledger; no bearer token  | GetPublicKey, DescribeKey (no Decrypt)     |
 * | checkoutPage    | Sessions GetItem (hosted-session lookup for the page's bootstrap)        | —                                          |
 * | configRead      | Sessions GetItem; Config GetItem, Query                                 | GetPublicKey, DescribeKey                  |
 * | configWrite     | Sessions GetItem; Config GetItem, PutItem, DeleteItem, Query            | GetPublicKey, DescribeKey                  |
 * | orders          | Sessions GetItem, PutItem; Config GetItem; Orders GetItem, PutItem, Query | —                                        |
 * | paymentLinks    | Sessions GetItem; Config GetItem; Orders GetItem, PutItem, UpdateItem, Query (4.14 links: create, read, cancel) | — |
 * | payLinkPage     | Sessions PutItem; Config GetItem; Orders GetItem, PutItem, UpdateItem, Query (GET /pay: the link's order and a hosted session; no bearer token) | — |
 * | payments        | Sessions GetItem, BatchGetItem; Config GetItem; Orders Get/BatchGet/Put/Update/Query/DeleteItem; Replay Get/Update/DeleteItem; the 3DS Server's API key secret (only when `threeDsServerApiKeyArn` is set) | GetPublicKey, DescribeKey (no Decrypt) |
 * | paymentsDecrypt | payments + — (the 3DS Server's API key secret likewise)                | Decrypt (RSAES_OAEP_SHA_256/SHA_1 only), GetPublicKey, DescribeKey |
 * | lifecycle       | Sessions GetItem; Config GetItem; Orders GetItem, Query, PutItem, UpdateItem (captures, reversals, refunds; processor reference locations) | — |
 * | processorNotifications | Config GetItem (merchant by processor account); Orders GetItem, Query, PutItem, UpdateItem (the processor inbox, settling payments and operations) | — |
 * | webhookEvents   | Sessions GetItem; Config GetItem; Orders Query, UpdateItem on EVENTS#… partitions only | — |
 * | webhookDelivery | Orders stream; Orders index `due` Query; Orders GetItem, Query, PutItem, UpdateItem (outboxes, deliveries; settling pending processor operations); Config GetItem; ssm:GetParameter on the Mastercard API credentials parameter (only when `mastercardApiCredentialsParameterArn` is set) | webhook-secrets key: Decrypt, only with purpose=webhook-signing-secret |
 * | webhookConfig   | Sessions GetItem; Config GetItem, PutItem (4.15 PUT, rotate-secret)     | webhook-secrets key only: Encrypt, only with purpose=webhook-signing-secret |
 *
 * plus, for the groups with a function whose table entry says `idempotency: 'supported'`
 * (idempotencyRoles of ./route-table.cjs; today orders, paymentLinks, payments, paymentsDecrypt,
 * configWrite, lifecycle, webhookEvents, webhookConfig), the `Idempotency` statement:
 * Idempotency GetItem, PutItem, UpdateItem, DeleteItem (Powertools' persistence layer).
 *
 * plus, on stages with the sandbox only, for the roles in SANDBOX_TABLE_ACCESS, the `Sandbox`
 * statement on the sandbox table (infra/tables.cjs), restricted to the item prefixes each needs
 * (`dynamodb:LeadingKeys`): payments and paymentsDecrypt (the sandbox acquirer's operations and
 * the ACS transactions they start), lifecycle (the acquirer's operations), sandboxAcs (its
 * transactions), sandboxSrc (its sessions, limits and confirmation ledger). Without the sandbox
 * there is no sandbox table and no statement names it.
 *
 * plus, for the groups in PROCESSOR_SECRET_GROUPS (payments, paymentsDecrypt, lifecycle,
 * processorNotifications, webhookDelivery — which asks processors about pending operations:
 * the functions that act for a merchant's processor), the
 * `ProcessorSecrets` statement: secretsmanager:GetSecretValue and ssm:GetParameter on the
 * processor secrets of this stack, by name prefix `<service>/<stage>/processors/`
 * (processorSecretResources; onboarding refuses an ARN outside it where PROCESSOR_SECRETS_PREFIX
 * is set). A secret encrypted with a customer-managed KMS key also needs kms:Decrypt in that
 * key's policy for these roles; the default aws/secretsmanager and aws/ssm keys need nothing.
 *
 * plus, for every role, logs:CreateLogStream / logs:PutLogEvents on its own functions' log
 * groups (the log groups themselves are created by the framework, with retention).
 *
 * Payload keys: the stack's `PayloadKey` (reached through alias
 * `alias/<service>-<stage>-payload-current`) unless the `payloadKeyIds` stage parameter says
 * otherwise. That parameter is the single source for both PAYLOAD_KEY_IDS (Lambda env) and the
 * KMS resources granted here, so the two can never drift apart during a key rotation:
 *   --param "payloadKeyIds=arn:aws:kms:…:key/NEW,alias/<service>-<stage>-payload-current"
 * Entries must be full key ARNs, or this stack's alias (which stands for `PayloadKey`).
 *
 * Webhook signing secrets (SPEC 4.15) are sealed with the stack's symmetric `WebhookSecretsKey`,
 * reached through alias `alias/<service>-<stage>-webhook-secrets` (WEBHOOK_SECRETS_KEY_ID, given
 * to the webhookConfig functions only). Grants on it always carry the encryption-context
 * condition `purpose = webhook-signing-secret` (webhookSecretsKeyStatement): the delivery
 * worker's group gets `kms:Decrypt` the same way; no group may use the key for anything else.
 * (4.15 GET reads no secret: it is a configRead function, with no access to this key.)
 */

const { deployedRouteTable, idempotencyRoles, loadRouteTable, roles } = require('./route-table.cjs');
const { stageSettings } = require('./stage.cjs');

/** The roles the route table may name (lib/http/routes.ts ROLES); dataStatements says what each may do. */
const ACCESS_GROUPS = Object.freeze([...roles()]);

/** Access groups whose functions read processor credentials or notification keys by ARN (SPEC 4.7). */
const PROCESSOR_SECRET_GROUPS = Object.freeze(['payments', 'paymentsDecrypt', 'lifecycle', 'processorNotifications', 'webhookDelivery']);

/** The name prefix of this stack's processor secrets (Secrets Manager names, SSM parameter paths without the leading slash). */
function processorSecretsPrefix(service, stage) {
  return `${service}/${stage}/processors/`;
}

/** Secrets Manager secrets and SSM parameters under the prefix, in this stack's account and region. */
function processorSecretsStatement(service, stage) {
  const prefix = processorSecretsPrefix(service, stage);
  return {
    Sid: 'ProcessorSecrets',
    Effect: 'Allow',
    Action: ['secretsmanager:GetSecretValue', 'ssm:GetParameter'],
    Resource: [
      sub(`arn:\${AWS::Partition}:secretsmanager:\${AWS::Region}:\${AWS::AccountId}:secret:${prefix}*`),
      sub(`arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter/${prefix}*`),
    ],
  };
}

const KMS_DECRYPT_ALGORITHMS = Object.freeze(['RSAES_OAEP_SHA_256', 'RSAES_OAEP_SHA_1']);
const PAYLOAD_KEY_LOGICAL_ID = 'PayloadKey';
const WEBHOOK_SECRETS_KEY_LOGICAL_ID = 'WebhookSecretsKey';
/** The encryption context every webhook-secret Encrypt/Decrypt carries (lib/adapters/kms/webhook-secret-sealer.ts). */
const WEBHOOK_SECRET_PURPOSE = 'webhook-signing-secret';
const LOCAL_STAGE = 'local';
const KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/** `configRead` → `LambdaRoleConfigRead`. */
function roleLogicalId(group) {
  if (!ACCESS_GROUPS.includes(group)) throw new Error(`Unknown access group "${group}"`);
  return `LambdaRole${group[0].toUpperCase()}${group.slice(1)}`;
}

/** The alias that always names this stack's own payload key. */
function payloadKeyAlias(service, stage) {
  return `alias/${service}-${stage}-payload-current`;
}

/**
 * Splits PAYLOAD_KEY_IDS into IAM resources: this stack's alias → the PayloadKey ARN, key ARNs
 * as they are. Anything else (other aliases, bare key ids) cannot be expressed as an IAM
 * resource, so it is refused at package time rather than failing in production.
 */
function payloadKeyResources(service, stage, payloadKeyIds) {
  const alias = payloadKeyAlias(service, stage);
  const ids = payloadKeyIds
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) refuse('payloadKeyIds: at least one key is required');
  const resources = [];
  for (const id of ids) {
    if (id === alias) resources.push({ 'Fn::GetAtt': [PAYLOAD_KEY_LOGICAL_ID, 'Arn'] });
    else if (KEY_ARN.test(id)) resources.push(id);
    // The `local` stage is never deployed (serverless-offline + local KMS server, no IAM):
    // it may name its keys any way the local KMS server understands.
    else if (stage !== LOCAL_STAGE) refuse(`payloadKeyIds: "${id}" must be a full KMS key ARN or ${alias}`);
  }
  if (resources.length === 0) resources.push({ 'Fn::GetAtt': [PAYLOAD_KEY_LOGICAL_ID, 'Arn'] });
  const seen = new Set();
  return resources.filter((r) => {
    const k = JSON.stringify(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The alias that always names this stack's webhook-secrets key (WEBHOOK_SECRETS_KEY_ID). */
function webhookSecretsKeyAlias(service, stage) {
  return `alias/${service}-${stage}-webhook-secrets`;
}

/**
 * WEBHOOK_SECRETS_KEY_ID: this stack's alias. Only the `local` stage (never deployed, no IAM)
 * may name another key, the one the local stack created.
 */
function webhookSecretsKeyId(service, stage, override) {
  return stage === LOCAL_STAGE && override ? override : webhookSecretsKeyAlias(service, stage);
}

/** `actions` on the webhook-secrets key, only for the webhook-signing-secret purpose. */
function webhookSecretsKeyStatement(sid, actions) {
  return {
    Sid: sid,
    Effect: 'Allow',
    Action: actions.map((a) => `kms:${a}`),
    Resource: [{ 'Fn::GetAtt': [WEBHOOK_SECRETS_KEY_LOGICAL_ID, 'Arn'] }],
    Condition: { StringEquals: { 'kms:EncryptionContext:purpose': WEBHOOK_SECRET_PURPOSE } },
  };
}

const sub = (template) => ({ 'Fn::Sub': template });
const tableArn = (logicalId) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const dynamo = (sid, logicalId, actions) => ({
  Sid: sid,
  Effect: 'Allow',
  Action: actions.map((a) => `dynamodb:${a}`),
  Resource: [tableArn(logicalId)],
});

/**
 * Who reaches the sandbox table, with which actions, on which items (leading-key prefixes):
 * the sandbox acquirer (SANDBOX_ACQUIRER#, lib/adapters/sandbox/sandbox-authorizer.ts) is called
 * by the functions that authorize, capture, reverse and refund; the sandbox ACS's transactions
 * (SANDBOX_ACS#, sandbox-acs-repository.ts) are written and read by the payment functions that
 * start a challenge and answered by the ACS; the SRC network's items (src#, src-limit#,
 * srcconf#, lib/adapters/sandbox/src/) are its own. functions.cjs gives these roles SANDBOX_TABLE.
 */
const SANDBOX_TABLE_ACCESS = Object.freeze({
  payments: { actions: ['GetItem', 'PutItem', 'UpdateItem'], keys: ['SANDBOX_ACQUIRER#*', 'SANDBOX_ACS#*'] },
  paymentsDecrypt: { actions: ['GetItem', 'PutItem', 'UpdateItem'], keys: ['SANDBOX_ACQUIRER#*', 'SANDBOX_ACS#*'] },
  lifecycle: { actions: ['GetItem', 'UpdateItem'], keys: ['SANDBOX_ACQUIRER#*'] },
  sandboxAcs: { actions: ['GetItem', 'UpdateItem'], keys: ['SANDBOX_ACS#*'] },
  sandboxSrc: { actions: ['GetItem', 'PutItem', 'UpdateItem'], keys: ['src#*', 'src-limit#*', 'srcconf#*'] },
});
const SANDBOX_TABLE_LOGICAL_ID = 'SandboxTable';

/** The group's statement on the sandbox table, where the stage has one; none otherwise. */
function sandboxStatements(group, sandbox) {
  const access = SANDBOX_TABLE_ACCESS[group];
  if (!sandbox || !access) return [];
  return [
    {
      ...dynamo('Sandbox', SANDBOX_TABLE_LOGICAL_ID, access.actions),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.keys] } },
    },
  ];
}

/**
 * What Powertools' DynamoDB persistence layer calls on the idempotency table: a conditional
 * put of the in-progress record, a consistent get when it exists, an update with the response,
 * a delete when the use case failed. For any role whose functions opt in to Idempotency-Key.
 */
function idempotencyStatement() {
  return dynamo('Idempotency', 'IdempotencyTable', ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);
}

/**
 * The statements of one group, logs excluded. `idempotent`: one of its functions takes an
 * Idempotency-Key; `sandbox`: the stage serves the sandbox (it has the sandbox table).
 */
function groupStatements(group, keyResources, extras = {}, { idempotent = false, sandbox = false } = {}) {
  const statements = [...dataStatements(group, keyResources), ...sandboxStatements(group, sandbox), ...extraStatements(group, extras)];
  if (PROCESSOR_SECRET_GROUPS.includes(group) && extras.service) statements.push(processorSecretsStatement(extras.service, extras.stage));
  return idempotent ? [...statements, idempotencyStatement()] : statements;
}

function dataStatements(group, keyResources) {
  const sessionsRead = dynamo('SessionsRead', 'SessionsTable', ['GetItem']);
  const publicKeys = {
    Sid: 'PayloadPublicKeys',
    Effect: 'Allow',
    Action: ['kms:GetPublicKey', 'kms:DescribeKey'],
    Resource: keyResources,
  };
  // BatchGetItem: a hosted session, its order and its payment in one read (4.3, 4.10).
  const payments = [
    dynamo('SessionsRead', 'SessionsTable', ['GetItem', 'BatchGetItem']),
    dynamo('ConfigRead', 'ConfigTable', ['GetItem']),
    dynamo('Orders', 'OrdersTable', ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'Query', 'DeleteItem']),
    dynamo('Replay', 'ReplayTable', ['GetItem', 'UpdateItem', 'DeleteItem']),
  ];
  switch (group) {
    case 'public':
      return [];
    case 'sandboxAcs':
      // The sandbox ACS reads its transaction record (written by the payment functions when
      // they start a challenge) and records the result on it, in the sandbox table only
      // (sandboxStatements); no bearer token reaches it, no product table.
      return [];
    case 'sandboxSrc':
      // The sandbox Click to Pay network keeps its SDK sessions, limits and ledger in the sandbox
      // table only (sandboxStatements) and encrypts checkout payloads to the *public* payload
      // key. It never decrypts: no kms:Decrypt.
      return [publicKeys];
    case 'checkoutPage':
      // The hosted page only looks its session up (by token hash) to render the bootstrap.
      return [sessionsRead];
    case 'configRead':
      return [sessionsRead, dynamo('ConfigRead', 'ConfigTable', ['GetItem', 'Query']), publicKeys];
    case 'configWrite':
      return [sessionsRead, dynamo('ConfigWrite', 'ConfigTable', ['GetItem', 'PutItem', 'DeleteItem', 'Query']), publicKeys];
    case 'orders':
      return [
        dynamo('Sessions', 'SessionsTable', ['GetItem', 'PutItem']),
        dynamo('ConfigRead', 'ConfigTable', ['GetItem']),
        dynamo('Orders', 'OrdersTable', ['GetItem', 'PutItem', 'Query']),
      ];
    case 'paymentLinks':
      // 4.14: a link item is created (PutItem), read, and changed once by a conditional UpdateItem
      // (cancel); reading its state reads its order (Query). Creation checks enablement (Config).
      return [sessionsRead, dynamo('ConfigRead', 'ConfigTable', ['GetItem']), dynamo('Orders', 'OrdersTable', ['GetItem', 'PutItem', 'UpdateItem', 'Query'])];
    case 'payLinkPage':
      // GET /pay/{linkRef}, public: reads the link, creates its order (PutItem) and attaches it
      // (conditional UpdateItem), reads the order (Query), mints a hosted session (PutItem).
      return [
        dynamo('Sessions', 'SessionsTable', ['PutItem']),
        dynamo('ConfigRead', 'ConfigTable', ['GetItem']),
        dynamo('Orders', 'OrdersTable', ['GetItem', 'PutItem', 'UpdateItem', 'Query']),
      ];
    case 'payments':
      // Direct Wallet seals data for a 3DS step-up with the *public* payload key: no Decrypt.
      return [...payments, publicKeys];
    case 'paymentsDecrypt':
      return [
        ...payments,
        publicKeys,
        {
          Sid: 'PayloadKeyUnwrap',
          Effect: 'Allow',
          Action: ['kms:Decrypt'],
          Resource: keyResources,
          Condition: { StringEquals: { 'kms:EncryptionAlgorithm': [...KMS_DECRYPT_ALGORITHMS] } },
        },
      ];
    case 'lifecycle':
      // Captures, reversals and refunds change the payment item with conditional UpdateItems (the
      // sandbox acquirer's ledger is in the sandbox table), and record where a processor
      // reference lives (PutItem) before sending it; no KMS at all.
      return [sessionsRead, dynamo('ConfigRead', 'ConfigTable', ['GetItem']), dynamo('Orders', 'OrdersTable', ['GetItem', 'Query', 'PutItem', 'UpdateItem'])];
    case 'processorNotifications':
      // Adyen's notifications: the merchant by its processor account (Config), the inbox
      // (PutItem once per notification, UpdateItem when applied, Query/GetItem), and the payment
      // or operation it settles (GetItem, Query, UpdateItem). No bearer token, no KMS.
      return [dynamo('ConfigRead', 'ConfigTable', ['GetItem']), dynamo('Orders', 'OrdersTable', ['GetItem', 'Query', 'PutItem', 'UpdateItem'])];
    case 'webhookConfig':
      // 4.15 PUT and rotate-secret: read-check-write of the merchant's webhook item with a
      // version condition (PutItem), and sealing new secrets. They never open one: no Decrypt.
      return [sessionsRead, dynamo('WebhookConfig', 'ConfigTable', ['GetItem', 'PutItem']), webhookSecretsKeyStatement('WebhookSecretSeal', ['Encrypt'])];
    case 'webhookEvents':
      // 4.15 events list and redeliver: only the merchants' event partitions (EVENTS#…) of the
      // orders table, never an order or payment item.
      return [
        sessionsRead,
        dynamo('ConfigRead', 'ConfigTable', ['GetItem']),
        {
          ...dynamo('MerchantEvents', 'OrdersTable', ['Query', 'UpdateItem']),
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EVENTS#*'] } },
        },
      ];
    case 'webhookDelivery':
      // The delivery worker: the orders table's stream, its sparse `due` index, draining payment
      // outboxes (GetItem, UpdateItem) into event items (PutItem, UpdateItem); the merchant's
      // webhook configuration; opening (never sealing) signing secrets; settling operations a
      // processor left pending (the order's Query, the payment's UpdateItem).
      return [
        {
          Sid: 'OrdersStream',
          Effect: 'Allow',
          Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
          Resource: [{ 'Fn::GetAtt': ['OrdersTable', 'StreamArn'] }],
        },
        { Sid: 'DueIndex', Effect: 'Allow', Action: ['dynamodb:Query'], Resource: [sub('${OrdersTable.Arn}/index/due')] },
        dynamo('Orders', 'OrdersTable', ['GetItem', 'Query', 'PutItem', 'UpdateItem']),
        dynamo('ConfigRead', 'ConfigTable', ['GetItem']),
        webhookSecretsKeyStatement('WebhookSecretOpen', ['Decrypt']),
      ];
    default:
      throw new Error(`Unknown access group "${group}"`);
  }
}

/** An SSM parameter ARN (the Mastercard API credentials, lib/adapters/network/mastercard/credentials.ts); anything else is refused. */
const SSM_PARAMETER_ARN = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[\w./-]+$/;

function mastercardCredentialsArn(value) {
  if (value === undefined || value === null || String(value).trim() === '') return undefined;
  const arn = String(value).trim();
  if (!SSM_PARAMETER_ARN.test(arn))
    refuse('mastercardApiCredentialsParameterArn must be an SSM parameter ARN (arn:aws:ssm:<region>:<account>:parameter/<name>)');
  return arn;
}

/** A Secrets Manager secret ARN (the 3DS Server's API key may be one, lib/adapters/aws/secret-string.ts). */
const SECRETS_MANAGER_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;
/** The groups whose functions step payments up (4.3, 4.4, 4.10): they read the 3DS Server's API key. */
const THREE_DS_GROUPS = Object.freeze(['payments', 'paymentsDecrypt']);

function threeDsServerApiKeyArn(value) {
  if (value === undefined || value === null || String(value).trim() === '') return undefined;
  const arn = String(value).trim();
  if (!SSM_PARAMETER_ARN.test(arn) && !SECRETS_MANAGER_ARN.test(arn))
    throw new Error('threeDsServerApiKeyArn must be a Secrets Manager secret ARN or an SSM parameter ARN (no wildcard)');
  return arn;
}

/**
 * Statements that depend on optional params. The delivery worker reads the Mastercard API
 * credentials (a SecureString; the default aws/ssm key needs no kms: grant, a customer key's
 * policy must allow this role) — that one parameter only, and only when configured. The payment
 * functions read the 3DS Server's API key (SPEC 4.17): that one secret or parameter only
 * (GetSecretValue, or GetParameter), and only when configured; a customer-managed KMS key of the
 * secret must allow these roles kms:Decrypt in its own key policy.
 */
function extraStatements(group, { mastercardApiCredentialsParameterArn, threeDsServerApiKeyArn: apiKeyArn }) {
  const statements = [];
  if (group === 'webhookDelivery' && mastercardApiCredentialsParameterArn)
    statements.push({ Sid: 'MastercardApiCredentials', Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: [mastercardApiCredentialsParameterArn] });
  if (THREE_DS_GROUPS.includes(group) && apiKeyArn) {
    const action = SECRETS_MANAGER_ARN.test(apiKeyArn) ? 'secretsmanager:GetSecretValue' : 'ssm:GetParameter';
    statements.push({ Sid: 'ThreeDsServerApiKey', Effect: 'Allow', Action: [action], Resource: [apiKeyArn] });
  }
  return statements;
}

/**
 * `{ LambdaRoleX: AWS::IAM::Role, … }` for every access group that has functions in `routeTable`
 * (the entries a stage deploys, ./route-table.cjs): each role's functions' log groups, its
 * data statements, and the idempotency table where one of its functions opts in.
 */
function roleResources({
  service,
  stage,
  payloadKeyIds,
  routeTable,
  sandbox = false,
  mastercardApiCredentialsParameterArn,
  threeDsServerApiKeyArn: apiKeyArn,
}) {
  const extras = {
    mastercardApiCredentialsParameterArn: mastercardCredentialsArn(mastercardApiCredentialsParameterArn),
    threeDsServerApiKeyArn: threeDsServerApiKeyArn(apiKeyArn),
    service,
    stage,
  };
  const keyResources = payloadKeyResources(service, stage, payloadKeyIds);
  const idempotent = new Set(idempotencyRoles(routeTable));
  for (const entry of routeTable) roleLogicalId(entry.role); // an unknown role fails here, by name
  const resources = {};
  for (const group of ACCESS_GROUPS) {
    const functionNames = routeTable.filter((entry) => entry.role === group).map((entry) => entry.name);
    if (functionNames.length === 0) continue;
    const logGroups = functionNames.map((name) =>
      sub(`arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${service}-${stage}-${name}:*`),
    );
    resources[roleLogicalId(group)] = {
      Type: 'AWS::IAM::Role',
      Properties: {
        Description: `${service} ${stage}: Lambda role for the ${group} functions (${functionNames.join(', ')})`.slice(0, 1000),
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        },
        Policies: [
          {
            PolicyName: `${service}-${stage}-${group}`,
            PolicyDocument: {
              Version: '2012-10-17',
              Statement: [
                { Sid: 'Logs', Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: logGroups },
                ...groupStatements(group, keyResources, extras, { idempotent: idempotent.has(group), sandbox }),
              ],
            },
          },
        ],
        Tags: [
          { Key: 'service', Value: service },
          { Key: 'stage', Value: stage },
          { Key: 'access-group', Value: group },
        ],
      },
    };
  }
  return resources;
}

async function resolveContext({ resolveConfigurationProperty, resolveVariable }) {
  const service = await resolveConfigurationProperty(['service']);
  const stage = await resolveVariable('sls:stage');
  const param = await resolveVariable('param:payloadKeyIds, null');
  const payloadKeyIds = typeof param === 'string' && param.trim() ? param.trim() : payloadKeyAlias(service, stage);
  const mastercardApiCredentialsParameterArn = mastercardCredentialsArn(await resolveVariable('param:mastercardApiCredentialsParameterArn, null'));
  const apiKeyArn = threeDsServerApiKeyArn(await resolveVariable('param:threeDsServerApiKeyArn, null'));
  return { service, stage, payloadKeyIds, mastercardApiCredentialsParameterArn, threeDsServerApiKeyArn: apiKeyArn };
}

/** serverless.yml: `resources: - ${file(./infra/serverless/iam.cjs):serverlessResources}` */
async function serverlessResources(helpers) {
  const context = await resolveContext(helpers);
  // Fail early with a clear message instead of a CloudFormation error.
  payloadKeyResources(context.service, context.stage, context.payloadKeyIds);
  // Roles only for the functions this stage deploys (no sandbox roles without the sandbox).
  const { sandbox } = await stageSettings(helpers);
  return { Resources: roleResources({ ...context, sandbox, routeTable: deployedRouteTable(loadRouteTable(), { sandbox }) }) };
}

/** serverless.yml: `PAYLOAD_KEY_IDS: ${file(./infra/serverless/iam.cjs):serverlessPayloadKeyIds}` */
async function serverlessPayloadKeyIds(helpers) {
  const context = await resolveContext(helpers);
  payloadKeyResources(context.service, context.stage, context.payloadKeyIds);
  return context.payloadKeyIds;
}

module.exports = {
  ACCESS_GROUPS,
  groupStatements,
  SANDBOX_TABLE_ACCESS,
  PROCESSOR_SECRET_GROUPS,
  processorSecretsPrefix,
  idempotencyStatement,
  KMS_DECRYPT_ALGORITHMS,
  roleLogicalId,
  payloadKeyAlias,
  payloadKeyResources,
  webhookSecretsKeyAlias,
  webhookSecretsKeyId,
  webhookSecretsKeyStatement,
  WEBHOOK_SECRET_PURPOSE,
  roleResources,
  THREE_DS_GROUPS,
  serverlessResources,
  serverlessPayloadKeyIds,
};
