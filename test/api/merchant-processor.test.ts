import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMerchantConfig } from '../../functions/get-merchant-config/handler.js';
import { handler as putMerchantConfig } from '../../functions/put-merchant-config/handler.js';
import { documentClient } from '../../lib/composition/aws.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, uniqueRef, type SeededMerchant } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { sessionTokenFor } from '../support/sessions.js';

/** SPEC 4.7 `processor`: validated at onboarding, credentials by ARN only, shown as {name, account}. */
let token: string;
let seeded: SeededMerchant;

const CREDENTIALS = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:click-to-pay/prod/processors/shop-AbCdEf';
const HMAC = 'arn:aws:ssm:eu-west-1:123456789012:parameter/click-to-pay/prod/processors/shop-hmac';
const adyen = (account = uniqueRef('ShopECOM')) => ({ name: 'adyen', account, credentialsArn: CREDENTIALS, notificationHmacKeyArn: HMAC });
const checkoutCom = () => ({ name: 'checkout_com', account: `pc_${'a'.repeat(20)}${uniqueRef('x').slice(2, 8)}`, credentialsArn: HMAC });

const onboarding = (extra: Record<string, unknown> = {}) => ({
  tenantRef: seeded.tenantRef,
  dpaId: 'dpa-prod',
  dpaClientId: 'client-prod',
  dpaName: 'Production Store',
  cardBrands: ['visa', 'mastercard'],
  environment: 'production',
  outlets: [uniqueRef('o')],
  ...extra,
});
const put = (merchantRef: string, body: unknown) =>
  invoke(putMerchantConfig, { method: 'PUT', path: `/config/merchants/${merchantRef}/configs/vctp`, pathParameters: { merchantRef }, token, body });
const get = (merchantRef: string, bearer = token) =>
  invoke(getMerchantConfig, { path: `/config/merchants/${merchantRef}/configs/vctp`, pathParameters: { merchantRef }, token: bearer });

beforeAll(async () => {
  token = await platformToken();
  seeded = await seedMerchant();
});

describe('4.7 processor at onboarding', () => {
  it('onboards a production merchant with Adyen and shows only the processor and the account', async () => {
    const merchantRef = uniqueRef('m');
    const processor = adyen();
    const response = await put(merchantRef, onboarding({ processor }));
    expect(response.status).toBe(200);
    expect(response.body.processor).toEqual({ name: 'adyen', account: processor.account });
    const read = await get(merchantRef);
    expect(read.body.processor).toEqual({ name: 'adyen', account: processor.account });
    expect(JSON.stringify(read.body)).not.toContain('arn:aws');
  });

  it('onboards a production merchant with Checkout.com (its processing channel)', async () => {
    const response = await put(uniqueRef('m'), onboarding({ processor: checkoutCom() }));
    expect(response.status).toBe(200);
    expect(response.body.processor).toMatchObject({ name: 'checkout_com', account: expect.stringMatching(/^pc_/) });
  });

  it('refuses a production merchant without a processor, naming the field', async () => {
    const response = await put(uniqueRef('m'), onboarding());
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ path: 'processor', message: expect.stringMatching(/production merchant needs a processor/) });
  });

  it('refuses the sandbox acquirer for a production merchant where the deployment does not allow it', async () => {
    const response = await put(uniqueRef('m'), onboarding({ processor: { name: 'sandbox' } }));
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual({ path: 'processor.name', message: expect.stringMatching(/real processor/) });
  });

  it('refuses a real processor for a sandbox merchant', async () => {
    const response = await put(uniqueRef('m'), onboarding({ environment: 'sandbox', processor: adyen() }));
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('processor.name');
    expect((await put(uniqueRef('m'), onboarding({ environment: 'sandbox', processor: { name: 'sandbox' } }))).status).toBe(200);
  });

  it.each([
    ['a secret instead of an ARN', { ...adyen(), credentialsArn: 'AQEyhmfxK4ExampleApiKey' }],
    ['an inline secret next to the ARN', { ...adyen(), apiKey: 'AQEyhmfxK4ExampleApiKey' }],
    ['Adyen without its notification HMAC key', { name: 'adyen', account: 'ShopECOM', credentialsArn: CREDENTIALS }],
  ])('refuses %s, and never echoes it', async (_what, processor) => {
    const response = await put(uniqueRef('m'), onboarding({ processor }));
    expect(response.status).toBe(400);
    expect(response.raw).not.toContain('AQEyhmfxK4ExampleApiKey');
  });

  it('keeps ARNs, never a resolved secret, in the configuration table', async () => {
    const merchantRef = uniqueRef('m');
    await put(merchantRef, onboarding({ processor: adyen() }));
    const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: process.env.CONFIG_TABLE! }));
    const stored = Items.find((item) => item.pk === `MERCHANT#${merchantRef}`)!;
    expect(stored.processor).toEqual({ name: 'adyen', account: expect.any(String), credentialsArn: CREDENTIALS, notificationHmacKeyArn: HMAC });
  });

  it('a processor account belongs to one merchant: another is refused (409), the holder may re-onboard', async () => {
    const processor = adyen();
    const first = uniqueRef('m');
    expect((await put(first, onboarding({ processor }))).status).toBe(200);
    const other = await put(uniqueRef('m'), onboarding({ processor }));
    expect([other.status, other.body.code]).toEqual([409, 'ONBOARDING_CONFLICT']);
    expect((await put(first, onboarding({ processor }))).status).toBe(200);
  });

  it('moving to another account releases the old one', async () => {
    const merchantRef = uniqueRef('m');
    const before = adyen();
    await put(merchantRef, onboarding({ processor: before }));
    await put(merchantRef, onboarding({ processor: adyen() }));
    expect((await put(uniqueRef('m'), onboarding({ processor: before }))).status).toBe(200);
  });

  it('GET-modify-PUT keeps the processor’s secrets: the {name, account} GET shows goes back as it is', async () => {
    const merchantRef = uniqueRef('m');
    await put(merchantRef, onboarding({ processor: adyen() }));
    const read = await get(merchantRef);
    const again = await put(merchantRef, { ...read.body, dpaName: 'Renamed Store' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ dpaName: 'Renamed Store', processor: read.body.processor });
    const { Items = [] } = await documentClient.send(new ScanCommand({ TableName: process.env.CONFIG_TABLE! }));
    expect(Items.find((item) => item.pk === `MERCHANT#${merchantRef}`)!.processor).toEqual({
      ...read.body.processor,
      credentialsArn: CREDENTIALS,
      notificationHmacKeyArn: HMAC,
    });
  });

  it('another processor or account must name its secrets: 400 naming each missing ARN, nothing changed', async () => {
    const merchantRef = uniqueRef('m');
    await put(merchantRef, onboarding({ processor: adyen() }));
    const moved = await put(merchantRef, onboarding({ processor: { name: 'adyen', account: uniqueRef('OtherECOM') } }));
    expect(moved.status).toBe(400);
    expect(moved.body.errors.map((e: { path: string }) => e.path)).toEqual(['processor.credentialsArn', 'processor.notificationHmacKeyArn']);
    const switched = await put(merchantRef, onboarding({ processor: { name: 'checkout_com', account: checkoutCom().account } }));
    expect(switched.body.errors.map((e: { path: string }) => e.path)).toEqual(['processor.credentialsArn']);
    expect((await get(merchantRef)).body.processor.name).toBe('adyen');
  });

  it('the hosted page (a session token) sees no processor', async () => {
    const merchantRef = uniqueRef('m');
    const outletId = uniqueRef('o');
    await put(merchantRef, onboarding({ outlets: [outletId], processor: adyen() }));
    const session = await sessionTokenFor({ tenantRef: seeded.tenantRef, merchantRef, outletId, orderRef: uniqueRef('order') });
    const read = await get(merchantRef, session);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('processor');
  });
});
