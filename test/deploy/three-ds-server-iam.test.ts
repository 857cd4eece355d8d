// @vitest-environment node
/**
 * The production 3DS Server's deployment (SPEC 4.17, docs/integrating/three-ds.md): the payment
 * functions alone get THREE_DS_SERVER_URL and THREE_DS_SERVER_API_KEY_ARN, and read access to
 * exactly that secret — GetSecretValue for a Secrets Manager ARN, GetParameter for an SSM one;
 * nothing when it is not set; anything else refused at package time. On the generators directly
 * (cloudformation.test.ts shows the Secrets Manager case in a packaged template).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Statement = { Sid: string; Action: string[]; Resource: unknown };
type Role = { Properties: { Policies: { PolicyDocument: { Statement: Statement[] } }[] } };
const iam = require('../../infra/serverless/iam.cjs') as {
  roleResources: (context: Record<string, unknown>) => Record<string, Role>;
  roleLogicalId: (group: string) => string;
  THREE_DS_GROUPS: readonly string[];
};
const functions = require('../../infra/serverless/functions.cjs') as {
  ROLE_ENVIRONMENT: Record<string, Record<string, string>>;
};
const { deployedRouteTable, loadRouteTable } = require('../../infra/serverless/route-table.cjs') as {
  loadRouteTable: () => unknown[];
  deployedRouteTable: (table: unknown[], options: { sandbox: boolean }) => unknown[];
};

const SSM_ARN = 'arn:aws:ssm:eu-west-1:123456789012:parameter/click-to-pay/prod/three-ds-api-key';
const SM_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:click-to-pay/prod/three-ds-api-key-AbCdEf';
const context = (extra: Record<string, unknown> = {}) => ({
  service: 'click-to-pay',
  stage: 'prod',
  payloadKeyIds: 'alias/click-to-pay-prod-payload-current',
  routeTable: deployedRouteTable(loadRouteTable(), { sandbox: false }),
  ...extra,
});
// Processor secrets have a statement of their own (cloudformation.test.ts); only the 3DS Server's key is looked at here.
const secretStatements = (role: Role) =>
  role.Properties.Policies[0]!.PolicyDocument.Statement.filter((st) => st.Sid !== 'ProcessorSecrets' && /secretsmanager:|ssm:/.test(JSON.stringify(st.Action)));

describe('the 3DS Server API key: IAM and environment', () => {
  it.each([
    [SSM_ARN, 'ssm:GetParameter'],
    [SM_ARN, 'secretsmanager:GetSecretValue'],
  ])('%s: the payment roles get %s on it, no other role anything', (arn, action) => {
    const roles = iam.roleResources(context({ threeDsServerApiKeyArn: arn }));
    for (const [id, role] of Object.entries(roles)) {
      const expected = iam.THREE_DS_GROUPS.map(iam.roleLogicalId).includes(id)
        ? [{ Sid: 'ThreeDsServerApiKey', Effect: 'Allow', Action: [action], Resource: [arn] }]
        : [];
      expect(secretStatements(role), id).toEqual(expected);
    }
    expect(iam.THREE_DS_GROUPS).toEqual(['payments', 'paymentsDecrypt']);
  });

  it('grants nothing when no 3DS Server is configured', () => {
    for (const [id, role] of Object.entries(iam.roleResources(context()))) expect(secretStatements(role), id).toEqual([]);
  });

  it('refuses a wildcard, a bare name or another service', () => {
    for (const bad of [
      'arn:aws:ssm:eu-west-1:123456789012:parameter/*',
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:*',
      'three-ds-api-key',
      'arn:aws:s3:::bucket/key',
      '*',
    ]) {
      expect(() => iam.roleResources(context({ threeDsServerApiKeyArn: bad })), bad).toThrow(/threeDsServerApiKeyArn/);
    }
  });

  it('passes the URL and the ARN to the payment functions; the page gets the URL only (its CSP)', () => {
    for (const group of ['payments', 'paymentsDecrypt']) {
      expect(functions.ROLE_ENVIRONMENT[group], group).toMatchObject({
        threeDsServerUrl: 'THREE_DS_SERVER_URL',
        threeDsServerApiKeyArn: 'THREE_DS_SERVER_API_KEY_ARN',
      });
    }
    expect(functions.ROLE_ENVIRONMENT.checkoutPage).toMatchObject({ threeDsServerUrl: 'THREE_DS_SERVER_URL' });
    for (const [group, variables] of Object.entries(functions.ROLE_ENVIRONMENT)) {
      if (!['payments', 'paymentsDecrypt'].includes(group)) expect(JSON.stringify(variables), group).not.toContain('API_KEY');
    }
  });
});
