// @vitest-environment node
/**
 * The Mastercard confirmations' deployment (docs/integrating/network-confirmations.md): the delivery worker
 * alone gets the three MASTERCARD_* variables from their stage params, and ssm:GetParameter on
 * exactly the configured credentials parameter — no statement at all when it is not set, and a
 * value that is not an SSM parameter ARN is refused at package time. Checked on the generators
 * directly (the packaged template of cloudformation.test.ts has no such params).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Statement = { Sid: string; Action: string[]; Resource: unknown };
type Role = { Properties: { Policies: { PolicyDocument: { Statement: Statement[] } }[] } };
const iam = require('../../infra/serverless/iam.cjs') as {
  roleResources: (context: Record<string, unknown>) => Record<string, Role>;
  roleLogicalId: (group: string) => string;
};
const functions = require('../../infra/serverless/functions.cjs') as {
  ROLE_ENVIRONMENT: Record<string, Record<string, string>>;
};
const { loadRouteTable } = require('../../infra/serverless/route-table.cjs') as { loadRouteTable: () => unknown[] };

const ARN = 'arn:aws:ssm:eu-west-1:123456789012:parameter/click-to-pay/prod/mastercard-api';
const context = (extra: Record<string, unknown> = {}) => ({
  service: 'click-to-pay',
  stage: 'prod',
  payloadKeyIds: 'alias/click-to-pay-prod-payload-current',
  routeTable: loadRouteTable(),
  ...extra,
});
/** A role without its ProcessorSecrets statement (test/deploy/processor-secrets.test.ts covers that one). */
const withoutProcessorSecrets = (role: Role) => role.Properties.Policies[0]!.PolicyDocument.Statement.filter((st) => st.Sid !== 'ProcessorSecrets');
const statements = (roles: Record<string, Role>, group: string) => roles[iam.roleLogicalId(group)]!.Properties.Policies[0]!.PolicyDocument.Statement;

describe('Mastercard confirmations: IAM and environment', () => {
  it('gives the delivery worker ssm:GetParameter on the configured parameter only, and no other role anything on SSM', () => {
    const roles = iam.roleResources(context({ mastercardApiCredentialsParameterArn: ARN }));
    expect(statements(roles, 'webhookDelivery').filter((st) => JSON.stringify(st.Action).includes('ssm:') && st.Sid !== 'ProcessorSecrets')).toEqual([
      { Sid: 'MastercardApiCredentials', Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: [ARN] },
    ]);
    for (const [id, role] of Object.entries(roles)) {
      if (id !== iam.roleLogicalId('webhookDelivery')) expect(JSON.stringify(withoutProcessorSecrets(role)), id).not.toContain('ssm:');
    }
  });

  it('grants nothing on SSM when no credentials parameter is configured (beyond the processor secrets)', () => {
    const roles = iam.roleResources(context());
    expect(JSON.stringify(Object.values(roles).map(withoutProcessorSecrets))).not.toContain('ssm:');
  });

  it('refuses a credentials parameter that is not an SSM parameter ARN (no wildcard, no other service)', () => {
    for (const bad of [
      'arn:aws:ssm:eu-west-1:123456789012:parameter/*',
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:x',
      '/click-to-pay/mastercard',
      '*',
    ]) {
      expect(() => iam.roleResources(context({ mastercardApiCredentialsParameterArn: bad })), bad).toThrow(/SSM parameter ARN/);
    }
  });

  it('passes the three MASTERCARD_* variables to the delivery worker alone', () => {
    expect(functions.ROLE_ENVIRONMENT.webhookDelivery).toEqual({
      mastercardConfirmationsUrl: 'MASTERCARD_CONFIRMATIONS_URL',
      mastercardSrcClientId: 'MASTERCARD_SRC_CLIENT_ID',
      mastercardApiCredentialsParameterArn: 'MASTERCARD_API_CREDENTIALS_PARAMETER_ARN',
    });
    for (const [group, variables] of Object.entries(functions.ROLE_ENVIRONMENT)) {
      if (group !== 'webhookDelivery') expect(JSON.stringify(variables), group).not.toContain('MASTERCARD');
    }
  });
});
