import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lib/core/errors.js';
import { withKeptSecrets } from '../../../lib/core/merchants/processor-secrets.js';

/** SPEC 4.7 `processor` secrets by ARN; 4.1 never shows them, so a PUT of the same processor and account keeps them. */
const stored = { name: 'adyen', account: 'ShopECOM', credentialsArn: 'arn:creds', notificationHmacKeyArn: 'arn:hmac' };

describe('a processor’s secrets on re-onboarding', () => {
  it('the same processor and account without ARNs keeps the stored ones', () => {
    expect(withKeptSecrets({ name: 'adyen', account: 'ShopECOM' }, stored)).toEqual(stored);
  });

  it('an ARN that is given replaces the stored one; the other is kept', () => {
    expect(withKeptSecrets({ name: 'adyen', account: 'ShopECOM', credentialsArn: 'arn:new' }, stored)).toEqual({ ...stored, credentialsArn: 'arn:new' });
  });

  it.each([
    ['another account', { name: 'adyen', account: 'OtherECOM' }, stored, ['processor.credentialsArn', 'processor.notificationHmacKeyArn']],
    ['another processor', { name: 'checkout_com', account: 'pc_x' }, stored, ['processor.credentialsArn']],
    ['a new merchant', { name: 'adyen', account: 'ShopECOM' }, undefined, ['processor.credentialsArn', 'processor.notificationHmacKeyArn']],
  ])('%s must name its ARNs (400 naming each missing one)', (_what, requested, before, paths) => {
    try {
      withKeptSecrets(requested, before);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).errors?.map((e) => e.path)).toEqual(paths);
    }
  });

  it('the sandbox acquirer needs no secret; no processor stays none', () => {
    expect(withKeptSecrets({ name: 'sandbox' }, stored)).toEqual({ name: 'sandbox' });
    expect(withKeptSecrets(undefined, stored)).toBeUndefined();
  });
});
