// @vitest-environment node
/**
 * Packages the service with `osls package` (offline: no AWS credentials, no network) and checks
 * the CloudFormation template it would deploy: functions and routes from the route table (lib/http/routes.ts),
 * one least-privilege role per access group, tables, the payload and webhook-secrets KMS keys
 * and the Lambda environment.
 *
 * Packaged with `--param sandbox=true`, so the sandbox functions are here; the stage without them,
 * production refusals, access logs and source maps: guard-rails.test.ts.
 *
 * Self-contained: it needs no global setup. It packages a temporary copy of the repository
 * (package-template.ts: node_modules symlinked) so that serverless-esbuild's work folder never
 * collides with a `serverless-offline` session running in the checkout.
 * While a handler listed in the route table does not exist yet, the suite is skipped (packaging
 * cannot succeed without every entry point); likewise without web/src/main.tsx, since the
 * checkoutPage function ships the built page (npm run build:web, done here in the copy).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../lib/http/routes.js';
import { packageTemplate, type PackagedTemplate } from './package-template.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SERVICE = 'click-to-pay';
const STAGE = 'test';
const REGION = 'eu-west-1';

// Loose CloudFormation shapes: the template is data, checked field by field below.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Resource {
  Type: string;
  Properties: Json;
  DependsOn?: string | string[];
}
interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: Json;
  Condition?: Json;
}

/** Every function of the table, the fallback ($default) included. */
const allFunctions = routeTable();
const missingHandlers = [...allFunctions.map((fn) => `functions/${fn.dir}/handler.ts`), 'web/src/main.tsx'].filter((file) => !existsSync(join(ROOT, file)));

if (missingHandlers.length > 0) {
  console.warn(`[cloudformation.test] skipped until these handlers exist: ${missingHandlers.join(', ')}`);
}

/** Roles whose functions take no bearer token (so need no Sessions lookup). */
// Called without a bearer token: the public pages, the sandbox and the webhook worker (stream, schedule).
const UNAUTHENTICATED_GROUPS = new Set(['public', 'sandboxAcs', 'sandboxSrc', 'checkoutPage', 'payLinkPage', 'webhookDelivery', 'processorNotifications']);

/** The production 3DS Server (SPEC 4.17) and the secret holding its API key. */
const THREE_DS_SERVER_URL = 'https://service.sandbox.3dsecure.io';
const THREE_DS_API_KEY_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:click-to-pay/test/three-ds-api-key-AbCdEf';

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe.skipIf(missingHandlers.length > 0)('osls package → CloudFormation template', () => {
  let packaged: PackagedTemplate | undefined;
  let packageDir = '';
  let serviceDir = '';
  let template: { Resources: Record<string, Resource>; Outputs?: Record<string, Json> };
  let resources: Record<string, Resource>;

  beforeAll(async () => {
    packaged = await packageTemplate(
      ['--param', 'sandbox=true', '--param', `threeDsServerUrl=${THREE_DS_SERVER_URL}`, '--param', `threeDsServerApiKeyArn=${THREE_DS_API_KEY_ARN}`],
      STAGE,
      REGION,
    );
    ({ packageDir, serviceDir } = packaged);
    template = packaged.template as typeof template;
    resources = template.Resources;
  }, 180_000);

  afterAll(() => packaged?.cleanup());

  it('leaves nothing in the temp directory: serverless-esbuild’s zip copies go with osls’ own TMPDIR (infra/serverless/osls-run.cjs)', () => {
    expect(packaged!.tmpLeftovers).toEqual([]);
  });

  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const functionEntry = (name: string): [string, Resource] => {
    const found = ofType('AWS::Lambda::Function').find(([, r]) => r.Properties.FunctionName === `${SERVICE}-${STAGE}-${name}`);
    if (!found) throw new Error(`no Lambda function ${name}`);
    return found;
  };
  const roleOf = (name: string): string => {
    const role = functionEntry(name)[1].Properties.Role;
    expect(role).toMatchObject({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    return role['Fn::GetAtt'][0] as string;
  };
  const statementsOf = (roleId: string): Statement[] => {
    const role = resources[roleId];
    expect(role?.Type).toBe('AWS::IAM::Role');
    return asArray<Json>(role?.Properties.Policies).flatMap((p) => asArray<Statement>(p.PolicyDocument.Statement));
  };
  const actionsOf = (statement: Statement) => asArray(statement.Action).map((a) => a.toLowerCase());
  const functionsWithAccess = (role: string) => allFunctions.filter((f) => f.role === role).map((f) => f.name);
  /** Route key → the logical id of the Lambda function its integration invokes. */
  const routeTargets = () => {
    const map = new Map<string, string>();
    for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
      const integrationId = route.Properties.Target?.['Fn::Join']?.[1]?.[1]?.Ref as string | undefined;
      const integration = integrationId ? resources[integrationId] : undefined;
      map.set(route.Properties.RouteKey, integration?.Properties.IntegrationUri?.['Fn::GetAtt']?.[0]);
    }
    return map;
  };

  it('has every function of the route table on nodejs22.x / arm64 with its handler and HTTP API routes', () => {
    const targets = routeTargets();
    for (const fn of allFunctions) {
      const [logicalId, lambda] = functionEntry(fn.name);
      expect(lambda.Properties.Runtime, fn.name).toBe('nodejs22.x');
      expect(lambda.Properties.Architectures, fn.name).toEqual(['arm64']);
      expect(lambda.Properties.Handler, fn.name).toBe(`functions/${fn.dir}/handler.handler`);
      for (const route of fn.routes) expect(targets.get(route), route).toBe(logicalId);
    }
    const routeKeys = [...targets.keys()].filter((key) => key !== '$default').sort();
    expect(routeKeys).toEqual(allFunctions.flatMap((fn) => fn.routes).sort());
  });

  it('sends everything else ($default) to the fallback function', () => {
    const [logicalId, lambda] = functionEntry('fallback');
    expect(lambda.Properties.Runtime).toBe('nodejs22.x');
    expect(lambda.Properties.Handler).toBe('functions/fallback/handler.handler');
    expect(routeTargets().get('$default')).toBe(logicalId);
    // Its 404/405 table knows the /sandbox/* routes are deployed (lib/composition/config/fallback-config.ts).
    expect(lambda.Properties.Environment.Variables.SANDBOX_ROUTES).toBe('deployed');
  });

  it('uses payload format 2.0 and sizes payment functions for the 10 s authorizer timeout', () => {
    for (const [, integration] of ofType('AWS::ApiGatewayV2::Integration')) {
      expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
    }
    for (const fn of allFunctions) {
      const props = functionEntry(fn.name)[1].Properties;
      // The notification function settles payments like the lifecycle functions do.
      const payment = ['payments', 'paymentsDecrypt', 'lifecycle', 'processorNotifications'].includes(fn.role);
      const worker = fn.role === 'webhookDelivery';
      expect(props.MemorySize, fn.name).toBe(payment ? 1024 : 512);
      const stepUp = fn.role === 'payments' || fn.role === 'paymentsDecrypt'; // 4.3, 4.4, 4.10 may run the 3DS Server too
      expect(props.Timeout, fn.name).toBe(worker ? 60 : stepUp ? 28 : payment ? 15 : 6);
      // A lease outlives its holder's Lambda: no holder can still be talking to the acquirer
      // when its lease is taken over (SPEC §3, docs/integrating/payment-processing.md "Exactly once").
      const env: Record<string, string> = props.Environment.Variables;
      if (payment) expect(Number(env.PAYMENT_LEASE_SECONDS), fn.name).toBeGreaterThan(props.Timeout);
    }
  });

  it('gives every function the one role of its access group, and each group its own role', () => {
    expect(resources.IamRoleLambdaExecution, 'no shared default role').toBeUndefined();
    const roleByGroup = new Map<string, string>();
    for (const fn of allFunctions) {
      const role = roleOf(fn.name);
      expect(resources[role]?.Type, fn.name).toBe('AWS::IAM::Role');
      const known = roleByGroup.get(fn.role);
      if (known) expect(role, `${fn.name} (${fn.role})`).toBe(known);
      else roleByGroup.set(fn.role, role);
    }
    expect(new Set(roleByGroup.values()).size).toBe(roleByGroup.size);
    expect(roleOf('fallback')).toBe(roleByGroup.get('public'));
  });

  it('allows kms:Decrypt only to the paymentsDecrypt role (payClickToPay, complete3ds), restricted to RSA-OAEP', () => {
    expect(functionsWithAccess('paymentsDecrypt').sort()).toEqual(['complete3ds', 'payClickToPay']);
    const decryptRole = roleOf('payClickToPay');
    expect(roleOf('complete3ds')).toBe(decryptRole);
    const grantsDecrypt = (s: Statement) =>
      s.Effect === 'Allow' && actionsOf(s).some((a) => a === 'kms:decrypt' || a === 'kms:*' || a === '*' || a === 'kms:decrypt*');
    for (const [roleId] of ofType('AWS::IAM::Role')) {
      const decrypts = statementsOf(roleId).filter(grantsDecrypt);
      if (roleId === roleOf('webhookDelivery')) {
        // The delivery worker opens webhook signing secrets: that key only, that purpose only.
        expect(decrypts.map((s) => [s.Resource, s.Condition])).toEqual([
          [[{ 'Fn::GetAtt': ['WebhookSecretsKey', 'Arn'] }], { StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } }],
        ]);
      } else if (roleId === decryptRole) {
        expect(decrypts.length).toBeGreaterThan(0);
        for (const s of decrypts) {
          expect(actionsOf(s)).toEqual(['kms:decrypt']);
          expect(s.Condition?.StringEquals?.['kms:EncryptionAlgorithm']).toEqual(expect.arrayContaining(['RSAES_OAEP_SHA_256', 'RSAES_OAEP_SHA_1']));
          expect(asArray(s.Condition.StringEquals['kms:EncryptionAlgorithm'])).toHaveLength(2);
        }
      } else {
        expect(decrypts, `${roleId} must not decrypt`).toEqual([]);
      }
    }
    // payDirect handles already-decrypted data; it may only read public keys (to seal data for 3DS).
    const payDirectKms = statementsOf(roleOf('payDirect')).flatMap((s) => actionsOf(s).filter((a) => a.startsWith('kms:')));
    expect(payDirectKms.sort()).toEqual(['kms:describekey', 'kms:getpublickey']); // actionsOf lower-cases
  });

  it('keeps config roles away from orders and replay data, and the public role to logs only', () => {
    const touches = (s: Statement, table: string) => JSON.stringify(s.Resource).includes(`"${table}"`);
    for (const group of ['configRead', 'configWrite', 'webhookConfig']) {
      const role = roleOf(functionsWithAccess(group)[0]!);
      for (const s of statementsOf(role)) {
        expect(touches(s, 'OrdersTable') || touches(s, 'ReplayTable'), `${group}: ${JSON.stringify(s)}`).toBe(false);
        if (s.Sid === 'Idempotency') continue; // Idempotency-Key records: checked on their own below
        expect(
          actionsOf(s).filter(
            (a) => a.startsWith('dynamodb:') && !['dynamodb:getitem', 'dynamodb:query', 'dynamodb:putitem', 'dynamodb:deleteitem'].includes(a),
          ),
        ).toEqual([]);
      }
      if (group === 'configRead') {
        const writes = statementsOf(role)
          .flatMap(actionsOf)
          .filter((a) => /^dynamodb:(put|delete|update|batchwrite)/.test(a));
        expect(writes).toEqual([]);
      }
    }
    const publicActions = statementsOf(roleOf('fallback')).flatMap(actionsOf);
    expect(publicActions.every((a) => a.startsWith('logs:'))).toBe(true);
    expect(publicActions).not.toContain('logs:*');
    for (const name of functionsWithAccess('public')) expect(roleOf(name), name).toBe(roleOf('fallback'));
  });

  it('keeps the sandbox in its own table, reached only by the roles that need it, each only on its own items', () => {
    const sandboxTable = JSON.stringify([{ 'Fn::GetAtt': ['SandboxTable', 'Arn'] }]);
    // Who calls the sandbox: its ACS and network, and the functions that reach the sandbox acquirer or start a sandbox challenge.
    const expected: Record<string, { actions: string[]; keys: string[] }> = {
      payments: { actions: ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem'], keys: ['SANDBOX_ACQUIRER#*', 'SANDBOX_ACS#*'] },
      paymentsDecrypt: { actions: ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem'], keys: ['SANDBOX_ACQUIRER#*', 'SANDBOX_ACS#*'] },
      lifecycle: { actions: ['dynamodb:getitem', 'dynamodb:updateitem'], keys: ['SANDBOX_ACQUIRER#*'] },
      sandboxAcs: { actions: ['dynamodb:getitem', 'dynamodb:updateitem'], keys: ['SANDBOX_ACS#*'] },
      sandboxSrc: { actions: ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem'], keys: ['src#*', 'src-limit#*', 'srcconf#*'] },
    };
    const naming = ofType('AWS::IAM::Role')
      .filter(([id]) => JSON.stringify(statementsOf(id)).includes('"SandboxTable"'))
      .map(([id]) => id)
      .sort();
    expect(naming).toEqual(
      Object.keys(expected)
        .map((role) => roleOf(functionsWithAccess(role)[0]!))
        .sort(),
    );
    for (const [role, want] of Object.entries(expected)) {
      const onSandbox = statementsOf(roleOf(functionsWithAccess(role)[0]!)).filter((st) => JSON.stringify(st.Resource).includes('"SandboxTable"'));
      expect(
        onSandbox.map((st) => ({ resource: JSON.stringify(st.Resource), actions: actionsOf(st).sort(), condition: st.Condition })),
        role,
      ).toEqual([{ resource: sandboxTable, actions: want.actions, condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': want.keys } } }]);
    }
    // Only the functions of those roles know the table.
    for (const fn of allFunctions) {
      const env: Record<string, string> = functionEntry(fn.name)[1].Properties.Environment.Variables;
      if (fn.role in expected) expect(env.SANDBOX_TABLE, fn.name).toBe(`${SERVICE}-${STAGE}-sandbox`);
      else expect(env, fn.name).not.toHaveProperty('SANDBOX_TABLE');
    }
  });

  it('gives the sandbox ACS and network no product table; the network the public payload keys; the checkout page one session read', () => {
    const dataActions = (name: string) =>
      statementsOf(roleOf(name))
        .filter((s) => !actionsOf(s).every((a) => a.startsWith('logs:')))
        .map((s) => ({ resource: JSON.stringify(s.Resource), actions: actionsOf(s).sort() }));
    const sandboxTable = JSON.stringify([{ 'Fn::GetAtt': ['SandboxTable', 'Arn'] }]);
    expect(functionsWithAccess('sandboxAcs')).toEqual(['sandboxAcs']);
    expect(dataActions('sandboxAcs')).toEqual([{ resource: sandboxTable, actions: ['dynamodb:getitem', 'dynamodb:updateitem'] }]);
    expect(functionsWithAccess('sandboxSrc')).toEqual(['sandboxSrc']);
    const src = dataActions('sandboxSrc');
    expect(src).toHaveLength(2);
    expect(src[0]!.actions).toEqual(['kms:describekey', 'kms:getpublickey']);
    expect(src[1]).toEqual({ resource: sandboxTable, actions: ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem'] });
    expect(functionsWithAccess('checkoutPage')).toEqual(['checkoutPage']);
    expect(dataActions('checkoutPage')).toEqual([{ resource: JSON.stringify([{ 'Fn::GetAtt': ['SessionsTable', 'Arn'] }]), actions: ['dynamodb:getitem'] }]);
  });

  it('gives the public payment-link page (no token) only what opening a link needs: no KMS, no session reads, no idempotency records', () => {
    expect(functionsWithAccess('payLinkPage')).toEqual(['payLinkPage']);
    const data = statementsOf(roleOf('payLinkPage'))
      .filter((s) => !actionsOf(s).every((a) => a.startsWith('logs:')))
      .map((s) => ({ resource: JSON.stringify(s.Resource), actions: actionsOf(s).sort() }));
    const table = (id: string) => JSON.stringify([{ 'Fn::GetAtt': [id, 'Arn'] }]);
    expect(data).toEqual([
      { resource: table('SessionsTable'), actions: ['dynamodb:putitem'] },
      { resource: table('ConfigTable'), actions: ['dynamodb:getitem'] },
      { resource: table('OrdersTable'), actions: ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:query', 'dynamodb:updateitem'] },
    ]);
  });

  it('grants every authenticated role the session lookup', () => {
    for (const fn of allFunctions.filter((f) => !UNAUTHENTICATED_GROUPS.has(f.role))) {
      const sessionRead = statementsOf(roleOf(fn.name)).some(
        (s) => actionsOf(s).includes('dynamodb:getitem') && JSON.stringify(s.Resource).includes('"SessionsTable"'),
      );
      expect(sessionRead, fn.name).toBe(true);
    }
  });

  it('lets the payment, lifecycle, processor-notification and delivery (recovery) roles read processor secrets, by this stack’s name prefix, and no other role', () => {
    const readers = new Set(['payments', 'paymentsDecrypt', 'lifecycle', 'processorNotifications', 'webhookDelivery']);
    const prefix = `${SERVICE}/${STAGE}/processors/`;
    for (const fn of allFunctions) {
      const onSecrets = statementsOf(roleOf(fn.name)).filter(
        (s) => s.Sid !== 'ThreeDsServerApiKey' && actionsOf(s).some((a) => a.startsWith('secretsmanager:') || a.startsWith('ssm:')),
      );
      if (!readers.has(fn.role)) {
        expect(onSecrets, `${fn.name} (${fn.role})`).toEqual([]);
        continue;
      }
      expect(onSecrets, fn.name).toEqual([
        {
          Sid: 'ProcessorSecrets',
          Effect: 'Allow',
          Action: ['secretsmanager:GetSecretValue', 'ssm:GetParameter'],
          Resource: [
            { 'Fn::Sub': `arn:\${AWS::Partition}:secretsmanager:\${AWS::Region}:\${AWS::AccountId}:secret:${prefix}*` },
            { 'Fn::Sub': `arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter/${prefix}*` },
          ],
        },
      ]);
    }
    expect(functionsWithAccess('processorNotifications')).toEqual(['adyenNotifications']);
    // Onboarding refuses a secret outside the prefix, so no merchant can name one the roles cannot read.
    expect(functionEntry('putMerchantConfig')[1].Properties.Environment.Variables.PROCESSOR_SECRETS_PREFIX).toBe(prefix);
  });

  it('gives the Idempotency-Key table to exactly the roles of functions that opt in, and nothing else on it', () => {
    const groupsOptingIn = new Set(allFunctions.filter((fn) => fn.idempotency === 'supported').map((fn) => fn.role));
    expect([...groupsOptingIn].sort()).toEqual([
      'configWrite',
      'lifecycle',
      'orders',
      'paymentLinks',
      'payments',
      'paymentsDecrypt',
      'webhookConfig',
      'webhookEvents',
    ]);
    for (const fn of allFunctions) {
      const onTable = statementsOf(roleOf(fn.name)).filter((s) => JSON.stringify(s.Resource).includes('"IdempotencyTable"'));
      if (!groupsOptingIn.has(fn.role)) {
        expect(onTable, `${fn.name} (${fn.role}) must not touch the idempotency table`).toEqual([]);
        continue;
      }
      expect(onTable, fn.name).toHaveLength(1);
      expect(onTable[0]!.Sid).toBe('Idempotency');
      expect(onTable[0]!.Resource).toEqual([{ 'Fn::GetAtt': ['IdempotencyTable', 'Arn'] }]);
      expect(actionsOf(onTable[0]!).sort(), fn.name).toEqual(['dynamodb:deleteitem', 'dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem']);
    }
  });

  it('never grants DynamoDB or KMS actions on Resource "*"', () => {
    const policies = Object.entries(resources).flatMap(([id, r]) => {
      if (r.Type === 'AWS::IAM::Role') return statementsOf(id).map((s) => [id, s] as const);
      if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') {
        return asArray<Statement>(r.Properties.PolicyDocument.Statement).map((s) => [id, s] as const);
      }
      return [];
    });
    expect(policies.length).toBeGreaterThan(0);
    for (const [id, s] of policies) {
      const sensitive = actionsOf(s).some((a) => a === '*' || a.startsWith('dynamodb:') || a.startsWith('kms:'));
      if (!sensitive) continue;
      const targets = asArray<Json>(s.Resource);
      expect(targets.length, id).toBeGreaterThan(0);
      for (const target of targets) {
        if (typeof target === 'string') expect(target.includes('*'), `${id}: ${target}`).toBe(false);
      }
    }
  });

  it('writes logs only to the group’s own function log groups', () => {
    for (const fn of allFunctions) {
      const logs = statementsOf(roleOf(fn.name)).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logs.flatMap(actionsOf).sort(), fn.name).toEqual(['logs:createlogstream', 'logs:putlogevents']);
      expect(JSON.stringify(logs.map((s) => s.Resource)), fn.name).toContain(`/aws/lambda/${SERVICE}-${STAGE}-${fn.name}:*`);
    }
  });

  it('defines the five product tables with point-in-time recovery, encryption and TTL (expiresAt; Powertools’ expiration on the idempotency table), and the sandbox’s', () => {
    const expected: Record<string, { name: string; keys: string[]; ttl?: string; sandbox?: true }> = {
      ConfigTable: { name: 'config', keys: ['pk', 'sk'] },
      OrdersTable: { name: 'orders', keys: ['pk', 'sk'], ttl: 'expiresAt' },
      SessionsTable: { name: 'sessions', keys: ['pk'], ttl: 'expiresAt' },
      ReplayTable: { name: 'replay', keys: ['pk'], ttl: 'expiresAt' },
      IdempotencyTable: { name: 'idempotency', keys: ['pk'], ttl: 'expiration' },
      // Disposable test data, every item expiring: no point-in-time recovery, and no deletion
      // protection, so that turning the sandbox off (sandbox=false) can delete it.
      SandboxTable: { name: 'sandbox', keys: ['pk'], ttl: 'expiresAt', sandbox: true },
    };
    expect(
      ofType('AWS::DynamoDB::Table')
        .map(([id]) => id)
        .sort(),
    ).toEqual(Object.keys(expected).sort());
    for (const [id, want] of Object.entries(expected)) {
      const props = resources[id]!.Properties;
      expect(props.TableName).toBe(`${SERVICE}-${STAGE}-${want.name}`);
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      expect(props.KeySchema.map((k: Json) => k.AttributeName)).toEqual(want.keys);
      expect(props.PointInTimeRecoverySpecification, id).toEqual({ PointInTimeRecoveryEnabled: !want.sandbox });
      if (want.sandbox) expect(props.DeletionProtectionEnabled, id).toBe(false);
      expect(props.SSESpecification?.SSEEnabled).toBe(true);
      if (want.ttl) expect(props.TimeToLiveSpecification, id).toEqual({ AttributeName: want.ttl, Enabled: true });
      else expect(props.TimeToLiveSpecification, id).toBeUndefined();
    }
  });

  it('creates an RSA ENCRYPT_DECRYPT payload key, retained, administered by the account, with an alias', () => {
    const keys = ofType('AWS::KMS::Key');
    expect(keys.map(([id]) => id).sort()).toEqual(['PayloadKey', 'WebhookSecretsKey']);
    const [keyId, key] = keys.find(([id]) => id === 'PayloadKey')!;
    expect(['RSA_2048', 'RSA_3072', 'RSA_4096']).toContain(key.Properties.KeySpec);
    expect(key.Properties.KeyUsage).toBe('ENCRYPT_DECRYPT');
    expect(key.Properties.EnableKeyRotation ?? false).toBe(false);
    expect((key as Json).DeletionPolicy).toBe('Retain');
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain(':root');
    const aliases = ofType('AWS::KMS::Alias').filter(([, a]) => a.Properties.TargetKeyId?.Ref === keyId);
    expect(aliases).toHaveLength(1);
    expect(aliases[0]![1].Properties.AliasName).toBe(`alias/${SERVICE}-${STAGE}-payload-current`);
  });

  it('creates a symmetric webhook-secrets key, rotating, retained, administered by the account, with an alias', () => {
    const key = resources.WebhookSecretsKey!;
    expect(key.Type).toBe('AWS::KMS::Key');
    expect(key.Properties).toMatchObject({ KeySpec: 'SYMMETRIC_DEFAULT', KeyUsage: 'ENCRYPT_DECRYPT', EnableKeyRotation: true });
    expect((key as Json).DeletionPolicy).toBe('Retain');
    expect((key as Json).UpdateReplacePolicy).toBe('Retain');
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain(':root');
    const aliases = ofType('AWS::KMS::Alias').filter(([, a]) => a.Properties.TargetKeyId?.Ref === 'WebhookSecretsKey');
    expect(aliases.map(([, a]) => a.Properties.AliasName)).toEqual([`alias/${SERVICE}-${STAGE}-webhook-secrets`]);
  });

  it('lets only the webhookConfig role (4.15 PUT, rotate-secret) use the webhook-secrets key: Encrypt, for that purpose only', () => {
    expect(functionsWithAccess('webhookConfig').sort()).toEqual(['putWebhookConfig', 'rotateWebhookSecret']);
    const role = roleOf('putWebhookConfig');
    expect(roleOf('rotateWebhookSecret')).toBe(role);
    const data = statementsOf(role).filter((s) => !actionsOf(s).every((a) => a.startsWith('logs:')));
    expect(data.map((s) => ({ resource: JSON.stringify(s.Resource), actions: actionsOf(s).sort() }))).toEqual([
      { resource: JSON.stringify([{ 'Fn::GetAtt': ['SessionsTable', 'Arn'] }]), actions: ['dynamodb:getitem'] },
      { resource: JSON.stringify([{ 'Fn::GetAtt': ['ConfigTable', 'Arn'] }]), actions: ['dynamodb:getitem', 'dynamodb:putitem'] },
      { resource: JSON.stringify([{ 'Fn::GetAtt': ['WebhookSecretsKey', 'Arn'] }]), actions: ['kms:encrypt'] },
      // rotate-secret takes an Idempotency-Key (its own test above checks that statement).
      {
        resource: JSON.stringify([{ 'Fn::GetAtt': ['IdempotencyTable', 'Arn'] }]),
        actions: ['dynamodb:deleteitem', 'dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:updateitem'],
      },
    ]);
    expect(data[2]!.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } });
    // No other role names the key but the delivery worker's (Decrypt, above), and 4.15 GET
    // (configRead) has no KMS access beyond public keys.
    for (const [roleId] of ofType('AWS::IAM::Role')) {
      if (roleId !== role && roleId !== roleOf('webhookDelivery')) expect(JSON.stringify(statementsOf(roleId)), roleId).not.toContain('WebhookSecretsKey');
    }
    expect(roleOf('getWebhookConfig')).toBe(roleOf('getMerchantConfig'));
  });

  it('feeds the webhook worker from the orders stream (due items only, no Lambda retries) and a 1-minute schedule', () => {
    expect(resources.OrdersTable!.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(resources.OrdersTable!.Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'due',
        KeySchema: [
          { AttributeName: 'dueShard', KeyType: 'HASH' },
          { AttributeName: 'dueAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
    const fnId = functionEntry('webhookDelivery')[0];
    const [, mapping] = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => JSON.stringify(m.Properties.FunctionName).includes(fnId))!;
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': ['OrdersTable', 'StreamArn'] });
    expect(mapping.Properties.MaximumRetryAttempts).toBe(0);
    expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({ dynamodb: { NewImage: { dueAt: { N: [{ exists: true }] } } } });
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.Targets).includes(fnId));
    expect(rules.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(['rate(1 minute)']);
    // Its role: the stream, the due index, the orders items (an order's Query to settle what a
    // processor left pending), the webhook configuration, the processor secrets — no API route.
    const data = statementsOf(roleOf('webhookDelivery')).filter((st) => !actionsOf(st).every((a) => a.startsWith('logs:')));
    expect(data.map((st) => [st.Sid, actionsOf(st).sort()])).toEqual([
      ['OrdersStream', ['dynamodb:describestream', 'dynamodb:getrecords', 'dynamodb:getsharditerator', 'dynamodb:liststreams']],
      ['DueIndex', ['dynamodb:query']],
      ['Orders', ['dynamodb:getitem', 'dynamodb:putitem', 'dynamodb:query', 'dynamodb:updateitem']],
      ['ConfigRead', ['dynamodb:getitem']],
      ['WebhookSecretOpen', ['kms:decrypt']],
      ['ProcessorSecrets', ['secretsmanager:getsecretvalue', 'ssm:getparameter']],
    ]);
    expect(ofType('AWS::ApiGatewayV2::Route').some(([, r]) => JSON.stringify(r).includes('WebhookDelivery'))).toBe(false);
  });

  it('lets the events endpoints touch only the merchants’ event partitions of the orders table', () => {
    const role = roleOf('listEvents');
    expect(roleOf('redeliverEvent')).toBe(role);
    const onOrders = statementsOf(role).filter((st) => JSON.stringify(st.Resource).includes('"OrdersTable"'));
    expect(onOrders.map((st) => [actionsOf(st).sort(), st.Condition])).toEqual([
      [['dynamodb:query', 'dynamodb:updateitem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EVENTS#*'] } }],
    ]);
  });

  it('lets the payment functions (4.3, 4.4, 4.10) alone read the 3DS Server’s API key: that one secret, GetSecretValue only', () => {
    const stepUp = new Set(['payments', 'paymentsDecrypt']);
    for (const fn of allFunctions) {
      const statements = statementsOf(roleOf(fn.name));
      // Processor secrets are granted by their own statement (the processor-secrets test above).
      const onSecrets = statements.filter(
        (s) => s.Sid !== 'ProcessorSecrets' && actionsOf(s).some((a) => a.startsWith('secretsmanager:') || a.startsWith('ssm:')),
      );
      const env: Record<string, string> = functionEntry(fn.name)[1].Properties.Environment.Variables;
      if (stepUp.has(fn.role)) {
        expect(
          onSecrets.map((s) => [actionsOf(s), s.Resource]),
          fn.name,
        ).toEqual([[['secretsmanager:getsecretvalue'], [THREE_DS_API_KEY_ARN]]]);
        expect([env.THREE_DS_SERVER_URL, env.THREE_DS_SERVER_API_KEY_ARN], fn.name).toEqual([THREE_DS_SERVER_URL, THREE_DS_API_KEY_ARN]);
      } else {
        expect(onSecrets, fn.name).toEqual([]);
        expect(env, fn.name).not.toHaveProperty('THREE_DS_SERVER_API_KEY_ARN');
        // The page only learns that a 3DS Server is there: its CSP then frames any https ACS.
        if (fn.role === 'checkoutPage') expect(env.THREE_DS_SERVER_URL).toBe(THREE_DS_SERVER_URL);
        else expect(env, fn.name).not.toHaveProperty('THREE_DS_SERVER_URL');
      }
    }
  });

  it('gives captures, reversals and refunds no KMS at all', () => {
    for (const name of ['createCapture', 'createReversal', 'createRefund']) {
      expect(roleOf(name)).toBe(roleOf('createCapture'));
      expect(JSON.stringify(statementsOf(roleOf(name)))).not.toContain('kms:');
    }
  });

  it('configures every function’s environment', () => {
    const tableNames = Object.fromEntries(ofType('AWS::DynamoDB::Table').map(([id, t]) => [id, t.Properties.TableName as string]));
    for (const fn of allFunctions) {
      const env: Record<string, string> = functionEntry(fn.name)[1].Properties.Environment.Variables;
      for (const name of ['PAYLOAD_KEY_IDS', 'NETWORK_JWKS_URLS', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL']) {
        expect(typeof env[name] === 'string' && env[name]!.length > 0, `${fn.name}: ${name}`).toBe(true);
      }
      expect(env.PAYLOAD_KEY_IDS).toBe(`alias/${SERVICE}-${STAGE}-payload-current`);
      expect(env.NETWORK_JWKS_URLS).toMatch(/^[a-z][a-z0-9-]*=https:\/\/\S+(,[a-z][a-z0-9-]*=https:\/\/\S+)*$/);
      expect(env.CONFIG_TABLE).toBe(tableNames.ConfigTable);
      expect(env.ORDERS_TABLE).toBe(tableNames.OrdersTable);
      expect(env.SESSIONS_TABLE).toBe(tableNames.SessionsTable);
      expect(env.REPLAY_TABLE).toBe(tableNames.ReplayTable);
      expect(env.IDEMPOTENCY_TABLE).toBe(tableNames.IdempotencyTable);
      expect(env).not.toHaveProperty('NODE_OPTIONS'); // no --enable-source-maps (guard-rails.test.ts)
      expect(env).not.toHaveProperty('PUBLIC_BASE_URL'); // optional, absent unless the param is set
      // Absent unless set: no signing key = sandbox SRC disabled (404); no SDK URLs = sandbox SDK only.
      expect(env).not.toHaveProperty('SANDBOX_NETWORK_SIGNING_JWKS_URL');
      expect(env).not.toHaveProperty('CLICK_TO_PAY_SDK_URLS');
      expect(env).not.toHaveProperty('PAYLOAD_KEY_NETWORK_KIDS'); // no network kids registered: thumbprint or key trial
      // Only the functions that seal webhook secrets know the key, through this stack's alias.
      if (fn.role === 'webhookConfig' || fn.role === 'webhookDelivery')
        expect(env.WEBHOOK_SECRETS_KEY_ID, fn.name).toBe(`alias/${SERVICE}-${STAGE}-webhook-secrets`);
      else expect(env, fn.name).not.toHaveProperty('WEBHOOK_SECRETS_KEY_ID');
      expect(Object.values(env).every((v) => typeof v === 'string' && v !== 'null')).toBe(true);
    }
  });

  it('configures no CORS by default: the hosted page is same-origin (corsAllowedOrigins unset)', () => {
    const [api] = ofType('AWS::ApiGatewayV2::Api');
    expect(api).toBeDefined();
    expect(api![1].Properties.CorsConfiguration).toBeUndefined();
    expect(JSON.stringify(template)).not.toMatch(/AllowOrigins|Access-Control-Allow-Origin/);
  });

  it('throttles every sandbox route on the $default stage, after the routes exist', () => {
    const [stageId, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]!;
    expect(stageId).toBe('HttpApiStage');
    const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = stage.Properties.RouteSettings;
    const sandboxRoutes = allFunctions
      .flatMap((fn) => [...fn.routes])
      .filter((route) => route.includes(' /sandbox/'))
      .sort();
    expect(sandboxRoutes.length).toBeGreaterThan(8);
    expect(Object.keys(settings).sort()).toEqual(sandboxRoutes);
    for (const [routeKey, setting] of Object.entries(settings)) {
      expect(setting.ThrottlingRateLimit, routeKey).toBeGreaterThan(0);
      expect(setting.ThrottlingRateLimit, routeKey).toBeLessThanOrEqual(20);
      expect(setting.ThrottlingBurstLimit, routeKey).toBeGreaterThanOrEqual(setting.ThrottlingRateLimit);
    }
    expect(settings['POST /sandbox/src/init']!.ThrottlingRateLimit).toBeLessThanOrEqual(5);
    expect(settings['POST /sandbox/src/otp/validate']!.ThrottlingRateLimit).toBeLessThanOrEqual(5);
    const routeIds = new Map(ofType('AWS::ApiGatewayV2::Route').map(([id, r]) => [r.Properties.RouteKey as string, id]));
    const dependsOn = asArray(stage.DependsOn);
    for (const routeKey of sandboxRoutes) expect(dependsOn, routeKey).toContain(routeIds.get(routeKey));
    // The API's own routes are not throttled per route: the stage default applies (params' defaults).
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
    expect(Object.keys(settings).some((key) => key.includes('/transactions/') || key.includes('/config/'))).toBe(false);
  });

  it('outputs the API URL, table names and key ARN', () => {
    const outputs = Object.keys(template.Outputs ?? {});
    expect(outputs).toEqual(
      expect.arrayContaining([
        'HttpApiUrl',
        'PayloadKeyArn',
        'WebhookSecretsKeyArn',
        'ConfigTableName',
        'OrdersTableName',
        'SessionsTableName',
        'ReplayTableName',
        'IdempotencyTableName',
        'SandboxTableName',
      ]),
    );
  });

  it('writes one bundled ESM zip per function', () => {
    for (const fn of allFunctions) {
      const zip = join(packageDir, `${fn.name}.zip`);
      expect(existsSync(zip), basename(zip)).toBe(true);
      expect(statSync(zip).size).toBeGreaterThan(0);
    }
    // Zip entry names are stored uncompressed: the bundle is there under the handler path.
    const getOrder = readFileSync(join(packageDir, 'getOrder.zip'));
    expect(getOrder.includes(Buffer.from('functions/get-order/handler.mjs'))).toBe(true);
  });

  it('gives each zip its handler and the chunks it imports (statically or by import()), and no other function’s code', () => {
    // serverless.yml splits the bundles (custom.esbuild.splitting): a chunk missing from a zip is an
    // import that fails in Lambda, another function's chunks are bytes every cold start unzips.
    for (const fn of allFunctions) {
      const zip = join(packageDir, `${fn.name}.zip`);
      const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
      const dir = `functions/${fn.dir}/`;
      const reached = new Set<string>();
      const queue = [`${dir}handler.mjs`];
      while (queue.length > 0) {
        const file = queue.pop()!;
        if (reached.has(file)) continue;
        reached.add(file);
        const source = execFileSync('unzip', ['-p', zip, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        expect(source.length, `${fn.name}: ${file}`).toBeGreaterThan(0);
        for (const [, chunk] of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"\.\/(handler\.[^"]+\.mjs)"/g)) queue.push(`${dir}${chunk}`);
      }
      expect(entries.filter((entry) => entry.startsWith('functions/')).sort(), fn.name).toEqual([...reached].sort());
    }
    // The payment and lifecycle functions do import() code of their own: there are chunks to check — the
    // payment functions' production adapters as one (lib/composition/payment-adapters.ts), the lifecycle
    // functions' processors one each.
    expect(execFileSync('unzip', ['-Z1', join(packageDir, 'payClickToPay.zip')], { encoding: 'utf8' })).toMatch(
      /functions\/pay-click-to-pay\/handler\.payment-adapters-/,
    );
    expect(execFileSync('unzip', ['-Z1', join(packageDir, 'createCapture.zip')], { encoding: 'utf8' })).toMatch(/functions\/create-capture\/handler\.adyen-/);
  });

  it('ships the built checkout page (web/dist) with the checkoutPage function only', () => {
    const page = readFileSync(join(packageDir, 'checkoutPage.zip'));
    const manifest = JSON.parse(readFileSync(join(serviceDir, 'web', 'dist', 'manifest.json'), 'utf8')) as { script: string };
    for (const file of ['web/dist/manifest.json', 'web/dist/index.html', `web/dist/assets/${manifest.script}`]) {
      expect(page.includes(Buffer.from(file)), file).toBe(true);
    }
    for (const fn of allFunctions.filter((f) => f.name !== 'checkoutPage')) {
      expect(readFileSync(join(packageDir, `${fn.name}.zip`)).includes(Buffer.from('web/dist/')), fn.name).toBe(false);
    }
  });
});
