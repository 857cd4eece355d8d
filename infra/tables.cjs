'use strict';

/**
 * The DynamoDB tables: ONE definition used by serverless.yml (CloudFormation resources,
 * table-name environment variables, IAM resources) and by the local stack (CreateTable on
 * dynalite with exactly the same KeySchema / AttributeDefinitions).
 *
 * CommonJS on purpose: the Serverless Framework loads `${file(...)}` JS sources with
 * `require`, and package.json says "type": "module", hence the `.cjs` extension. From
 * TypeScript/ESM use `createRequire(import.meta.url)('../tables.cjs')` or a default import.
 *
 * Attribute names follow lib/adapters/dynamodb: every table is keyed by `pk` (+ `sk` where items
 * of one partition are queried together); `expiresAt` (epoch seconds) is the TTL attribute,
 * except on the idempotency table, whose item layout is Powertools' (`expiration`).
 */

/** @typedef {{ AttributeName: string, KeyType: 'HASH' | 'RANGE' }} KeySchemaElement */
/** @typedef {{ AttributeName: string, AttributeType: 'S' | 'N' | 'B' }} AttributeDefinition */
/**
 * @typedef {object} TableDefinition
 * @property {string} logicalId CloudFormation logical id
 * @property {string} envVar environment variable that carries the table name (lib/composition/config/service-config.ts)
 * @property {string} baseName suffix of the physical name `${service}-${stage}-${baseName}`
 * @property {KeySchemaElement[]} keySchema
 * @property {AttributeDefinition[]} attributeDefinitions
 * @property {string} [ttlAttribute] DynamoDB TTL attribute (epoch seconds), when the table has one
 * @property {Array<{ IndexName: string, KeySchema: KeySchemaElement[], Projection: { ProjectionType: string } }>} [globalSecondaryIndexes]
 * @property {'NEW_IMAGE'} [stream] DynamoDB Streams view type, when the table feeds a function
 * @property {true} [sandbox] only on stages that serve the sandbox (infra/serverless/stage.cjs);
 *   its data is disposable test data: no point-in-time recovery, no deletion protection (turning
 *   the sandbox off must be able to delete it), and only the roles that need it may reach it
 */

const { stageSettings } = require('./serverless/stage.cjs');

const hashAndRange = {
  keySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  attributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
  ],
};

const hashOnly = {
  keySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  attributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
};

/** @type {ReadonlyArray<TableDefinition>} */
const tables = Object.freeze([
  // Platform / tenant / merchant / outlet configuration. Long-lived: no TTL.
  { logicalId: 'ConfigTable', envVar: 'CONFIG_TABLE', baseName: 'config', ...hashAndRange },
  // Orders and their payments (one partition per order) and the merchants' webhook events
  // (partition EVENTS#<merchantRef>). The sparse `due` index
  // holds only items with webhook work to do (lib/adapters/dynamodb/outbox.ts); the stream feeds
  // the delivery function at once, the index lets a scheduled sweep find anything it missed.
  {
    logicalId: 'OrdersTable',
    envVar: 'ORDERS_TABLE',
    baseName: 'orders',
    keySchema: hashAndRange.keySchema,
    attributeDefinitions: [
      ...hashAndRange.attributeDefinitions,
      { AttributeName: 'dueShard', AttributeType: 'S' },
      { AttributeName: 'dueAt', AttributeType: 'N' },
    ],
    globalSecondaryIndexes: [
      {
        IndexName: 'due',
        KeySchema: [
          { AttributeName: 'dueShard', KeyType: 'HASH' },
          { AttributeName: 'dueAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
    stream: 'NEW_IMAGE',
    ttlAttribute: 'expiresAt',
  },
  // Hosted-session tokens, keyed by the SHA-256 of the token.
  { logicalId: 'SessionsTable', envVar: 'SESSIONS_TABLE', baseName: 'sessions', ...hashOnly, ttlAttribute: 'expiresAt' },
  // Replay guard for checkout responses (JWS jti / srcCorrelationId), TTL 24 h.
  { logicalId: 'ReplayTable', envVar: 'REPLAY_TABLE', baseName: 'replay', ...hashOnly, ttlAttribute: 'expiresAt' },
  // Idempotency-Key records (lib/http/idempotency.ts), written by Powertools' DynamoDB
  // persistence layer: `pk` is a hash of scope + key, `expiration` (epoch seconds, 24 h) its TTL.
  { logicalId: 'IdempotencyTable', envVar: 'IDEMPOTENCY_TABLE', baseName: 'idempotency', ...hashOnly, ttlAttribute: 'expiration' },
  // The sandbox's own state, beside the product's (docs/sandbox.md "Where the sandbox keeps its
  // state"): the sandbox acquirer's operations (SANDBOX_ACQUIRER#<idempotency key>), the sandbox
  // ACS's transactions (SANDBOX_ACS#<threeDSServerTransID>), the sandbox Click to Pay network's
  // sessions (src#<sha256>), rate-limit counters (src-limit#…) and confirmation ledger
  // (srcconf#…). Every item expires (`expiresAt`). Only on stages with the sandbox.
  { logicalId: 'SandboxTable', envVar: 'SANDBOX_TABLE', baseName: 'sandbox', ...hashOnly, ttlAttribute: 'expiresAt', sandbox: true },
]);

/** The tables a stage has: without the sandbox, no sandbox table. */
function stageTables({ sandbox }) {
  return tables.filter((t) => sandbox || !t.sandbox);
}

/** Stages whose tables may be deleted with the stack (no DeletionProtectionEnabled). */
const UNPROTECTED_STAGES = new Set(['dev', 'local']);

/** Physical table name: `${service}-${stage}-${baseName}`. */
function tableName(service, stage, baseName) {
  return `${service}-${stage}-${baseName}`;
}

/** Finds a table definition by logical id, env var or base name. */
function table(id) {
  const found = tables.find((t) => t.logicalId === id || t.envVar === id || t.baseName === id);
  if (!found) throw new Error(`Unknown table "${id}"`);
  return found;
}

/**
 * `{ CONFIG_TABLE: 'svc-stage-config', … }` — the table-name environment variables of every
 * table (the local stack and the tests have them all); a deployment gives SANDBOX_TABLE only to
 * the functions whose roles reach it (infra/serverless/functions.cjs).
 */
function environment(service, stage) {
  return Object.fromEntries(tables.map((t) => [t.envVar, tableName(service, stage, t.baseName)]));
}

/**
 * Input for DynamoDB `CreateTable` (local stack / dynalite). TTL, PITR and SSE are not part of
 * CreateTable; call UpdateTimeToLive separately if the emulator should honour `ttlAttribute`.
 */
function createTableInput(definition, name) {
  return {
    TableName: name,
    KeySchema: definition.keySchema.map((k) => ({ ...k })),
    AttributeDefinitions: definition.attributeDefinitions.map((a) => ({ ...a })),
    BillingMode: 'PAY_PER_REQUEST',
    ...(definition.globalSecondaryIndexes ? { GlobalSecondaryIndexes: structuredClone(definition.globalSecondaryIndexes) } : {}),
  };
}

/** CloudFormation `AWS::DynamoDB::Table` resources keyed by logical id; the sandbox table only with `options.sandbox`. */
function cloudFormationResources(service, stage, options = {}) {
  const deletionProtection = options.deletionProtection ?? !UNPROTECTED_STAGES.has(stage);
  return Object.fromEntries(
    stageTables({ sandbox: options.sandbox === true }).map((t) => {
      /** @type {Record<string, unknown>} */
      const properties = {
        TableName: tableName(service, stage, t.baseName),
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: t.keySchema.map((k) => ({ ...k })),
        AttributeDefinitions: t.attributeDefinitions.map((a) => ({ ...a })),
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: !t.sandbox },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: deletionProtection && !t.sandbox,
      };
      if (t.ttlAttribute) {
        properties.TimeToLiveSpecification = { AttributeName: t.ttlAttribute, Enabled: true };
      }
      if (t.globalSecondaryIndexes) properties.GlobalSecondaryIndexes = structuredClone(t.globalSecondaryIndexes);
      if (t.stream) properties.StreamSpecification = { StreamViewType: t.stream };
      return [t.logicalId, { Type: 'AWS::DynamoDB::Table', Properties: properties }];
    }),
  );
}

/** CloudFormation outputs with the physical table names (the sandbox table's only with `options.sandbox`). */
function cloudFormationOutputs(options = {}) {
  return Object.fromEntries(
    stageTables({ sandbox: options.sandbox === true }).map((t) => [
      `${t.logicalId}Name`,
      { Description: `${t.envVar} (DynamoDB table name)`, Value: { Ref: t.logicalId } },
    ]),
  );
}

/**
 * Serverless Framework entry point: `resources: - ${file(./infra/tables.cjs):serverlessResources}`.
 * The framework calls exported functions with its resolver helpers.
 */
async function serverlessResources(helpers) {
  const service = await helpers.resolveConfigurationProperty(['service']);
  const { stage, sandbox } = await stageSettings(helpers);
  return { Resources: cloudFormationResources(service, stage, { sandbox }), Outputs: cloudFormationOutputs({ sandbox }) };
}

/** Serverless Framework entry point for `provider.environment` table names. */
async function serverlessEnvironment({ resolveConfigurationProperty, resolveVariable }) {
  const service = await resolveConfigurationProperty(['service']);
  const stage = await resolveVariable('sls:stage');
  return environment(service, stage);
}

module.exports = {
  tables,
  stageTables,
  table,
  tableName,
  environment,
  createTableInput,
  cloudFormationResources,
  cloudFormationOutputs,
  serverlessResources,
  serverlessEnvironment,
};
