import { describe, expect, it } from 'vitest';
import { processorConfig } from '../../lib/http/processor-config.js';

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ctp/adyen/shop-AbCdEf';
const PARAMETER = 'arn:aws:ssm:eu-west-1:123456789012:parameter/ctp/adyen/hmac';

describe('processor configuration (SPEC 4.7)', () => {
  it('accepts Adyen with credentials in Secrets Manager and the HMAC key in an SSM parameter', () => {
    expect(processorConfig.parse({ name: 'adyen', account: 'ShopECOM', credentialsArn: SECRET, notificationHmacKeyArn: PARAMETER })).toMatchObject({
      name: 'adyen',
    });
  });

  it('leaves a missing ARN to onboarding, which keeps the stored one for the same account or refuses (processor-secrets.ts)', () => {
    // Adyen's HMAC key stays required — modifications settle only by notification — but GET never
    // shows it, so the body GET answered must still pass here (GET-modify-PUT).
    expect(processorConfig.safeParse({ name: 'adyen', account: 'ShopECOM' }).success).toBe(true);
  });

  it('accepts Checkout.com with a processing channel', () => {
    expect(processorConfig.parse({ name: 'checkout_com', account: 'pc_abcdefghijklmnopqrstuvwxyz', credentialsArn: PARAMETER })).toMatchObject({
      name: 'checkout_com',
    });
  });

  it.each([
    ['a credential instead of an ARN', { name: 'adyen', account: 'ShopECOM', credentialsArn: 'AQEyhmfxK4', notificationHmacKeyArn: PARAMETER }],
    ['an ARN of another service', { name: 'adyen', account: 'ShopECOM', credentialsArn: 'arn:aws:s3:::bucket/key', notificationHmacKeyArn: PARAMETER }],
    ['an inline secret member', { name: 'checkout_com', account: 'pc_abcdefghijklmnopqrstuvwxyz', credentialsArn: SECRET, secretKey: 'sk_live' }],
    ['an unknown processor', { name: 'worldpay', account: 'x', credentialsArn: SECRET }],
    ['the sandbox with an account or credentials', { name: 'sandbox', account: 'x', credentialsArn: SECRET }],
    ['a Checkout.com account that is not a processing channel', { name: 'checkout_com', account: 'ShopECOM', credentialsArn: SECRET }],
  ])('refuses %s', (_what, input) => {
    expect(processorConfig.safeParse(input).success).toBe(false);
  });

  it('takes the sandbox acquirer by name, with nothing else', () => {
    expect(processorConfig.parse({ name: 'sandbox' })).toEqual({ name: 'sandbox' });
  });
});
