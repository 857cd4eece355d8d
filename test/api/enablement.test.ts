import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putPlatform } from '../../functions/put-platform-payment-methods/handler.js';
import { handler as getPlatform } from '../../functions/get-platform-payment-methods/handler.js';
import { handler as putTenant } from '../../functions/put-tenant-payment-methods/handler.js';
import { handler as getTenant } from '../../functions/get-tenant-payment-methods/handler.js';
import { handler as createOrder } from '../../functions/create-order/handler.js';
import { handler as getMerchantConfig } from '../../functions/get-merchant-config/handler.js';
import { invoke } from '../support/invoke.js';
import { seedMerchant, uniqueRef } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * SPEC 4.5/4.6 and the enablement rules. This file owns its tables (test/support/env.ts),
 * so flipping the platform switch here disturbs no other test file. Tests run in order.
 */
let token: string;
const platform = (method: 'PUT' | 'POST', paymentMethods: unknown) =>
  invoke(putPlatform, { method, path: '/config/platform/configs/payment-methods', token, body: { paymentMethods } });
const tenant = (tenantRef: string, paymentMethods: unknown, method: 'PUT' | 'POST' = 'PUT') =>
  invoke(putTenant, {
    method,
    path: `/config/tenants/${tenantRef}/configs/payment-methods`,
    pathParameters: { tenantRef },
    token,
    body: { paymentMethods },
  });

beforeAll(async () => {
  token = await platformToken();
});

describe('platform and tenant enablement', () => {
  it('reads an unconfigured platform as everything off', async () => {
    const response = await invoke(getPlatform, { path: '/config/platform/configs/payment-methods', token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      level: 'platform',
      paymentMethods: { CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } },
    });
  });

  it('refuses tenant enablement while the platform has Click to Pay off (409)', async () => {
    const response = await tenant(uniqueRef('t'), { CLICK_TO_PAY: { enabled: true } });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('PLATFORM_NOT_ENABLED');
  });

  it('allows a tenant to switch a method off even while the platform has it off', async () => {
    const response = await tenant(uniqueRef('t'), { CLICK_TO_PAY: { enabled: false } });
    expect(response.status).toBe(200);
  });

  it('rejects DIRECT_WALLET without CLICK_TO_PAY at the same level (400)', async () => {
    const response = await platform('PUT', { DIRECT_WALLET: { enabled: true } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_REQUEST');
    expect(response.body.errors[0].path).toBe('paymentMethods.DIRECT_WALLET.enabled');
  });

  it('PUT and POST are the same idempotent upsert of the listed methods', async () => {
    const first = await platform('PUT', { CLICK_TO_PAY: { enabled: true } });
    expect(first.status).toBe(200);
    expect(first.body.paymentMethods).toEqual({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: false } });
    expect(first.body.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = await platform('POST', { CLICK_TO_PAY: { enabled: true } });
    expect(again.body.paymentMethods).toEqual(first.body.paymentMethods);
    const second = await platform('POST', { DIRECT_WALLET: { enabled: true } });
    expect(second.body.paymentMethods).toEqual({ CLICK_TO_PAY: { enabled: true }, DIRECT_WALLET: { enabled: true } });
    const read = await invoke(getPlatform, { path: '/config/platform/configs/payment-methods', token });
    expect(read.body.paymentMethods).toEqual(second.body.paymentMethods);
  });

  it('rejects turning CLICK_TO_PAY off while DIRECT_WALLET stays on at that level', async () => {
    const response = await platform('PUT', { CLICK_TO_PAY: { enabled: false } });
    expect(response.status).toBe(400);
  });

  it('enables a tenant once the platform is on, and GET reads it back', async () => {
    const tenantRef = uniqueRef('t');
    const put = await tenant(tenantRef, { CLICK_TO_PAY: { enabled: true } }, 'POST');
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ level: 'tenant', tenantRef, paymentMethods: { CLICK_TO_PAY: { enabled: true } } });
    const read = await invoke(getTenant, {
      path: `/config/tenants/${tenantRef}/configs/payment-methods`,
      pathParameters: { tenantRef },
      token,
    });
    expect(read.body).toEqual(put.body);
  });

  it('rejects unknown methods and malformed settings', async () => {
    expect((await platform('PUT', { APPLE_PAY: { enabled: true } })).status).toBe(400);
    expect((await platform('PUT', { CLICK_TO_PAY: { enabled: 'yes' } })).status).toBe(400);
    expect((await platform('PUT', { CLICK_TO_PAY: { enabled: true, extra: 1 } })).status).toBe(400);
    expect((await platform('PUT', {})).status).toBe(400);
  });

  it('orders offer Click to Pay only while platform, tenant and merchant all allow it', async () => {
    const seeded = await seedMerchant();
    const orderToken = await platformToken();
    const order = () =>
      invoke(createOrder, {
        method: 'POST',
        path: `/transactions/outlets/${seeded.outletId}/orders`,
        pathParameters: { outletId: seeded.outletId },
        token: orderToken,
        body: { action: 'PURCHASE', amount: { currencyCode: 'AED', value: 2500 } },
      });
    const config = () =>
      invoke(getMerchantConfig, {
        path: `/config/merchants/${seeded.merchantRef}/configs/vctp`,
        pathParameters: { merchantRef: seeded.merchantRef },
        token: orderToken,
      });

    expect((await order()).body.paymentMethods).toEqual(['CLICK_TO_PAY']);
    expect((await config()).body.clickToPayEnabled).toBe(true);

    expect((await platform('PUT', { CLICK_TO_PAY: { enabled: false }, DIRECT_WALLET: { enabled: false } })).status).toBe(200);
    const offPlatform = await order();
    expect(offPlatform.status).toBe(201);
    expect(offPlatform.body.paymentMethods).toEqual([]);
    expect((await config()).body.clickToPayEnabled).toBe(false);

    expect((await platform('PUT', { CLICK_TO_PAY: { enabled: true } })).status).toBe(200);
    expect((await order()).body.paymentMethods).toEqual(['CLICK_TO_PAY']);

    expect((await tenant(seeded.tenantRef, { CLICK_TO_PAY: { enabled: false } })).status).toBe(200);
    expect((await order()).body.paymentMethods).toEqual([]);
  });

  it('offers DIRECT_WALLET only when platform and tenant both have it on', async () => {
    const seeded = await seedMerchant({}, { directWallet: true });
    const response = await invoke(getMerchantConfig, {
      path: `/config/merchants/${seeded.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: seeded.merchantRef },
      token,
    });
    expect(response.body).toMatchObject({ clickToPayEnabled: true, directWalletEnabled: true });
    await platform('PUT', { DIRECT_WALLET: { enabled: false } });
    const after = await invoke(getMerchantConfig, {
      path: `/config/merchants/${seeded.merchantRef}/configs/vctp`,
      pathParameters: { merchantRef: seeded.merchantRef },
      token,
    });
    expect(after.body).toMatchObject({ clickToPayEnabled: true, directWalletEnabled: false });
  });
});
