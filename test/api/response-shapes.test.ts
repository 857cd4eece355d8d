import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import * as resources from '../../lib/http/resource-schemas.js';
import { ENDPOINTS, type World } from '../support/endpoints.js';
import { invoke } from '../support/invoke.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';
import { checkoutResponse } from '../support/checkout.js';
import { answerChallenge, completeThreeDs, pay, payDirectly } from '../support/payments.js';

/**
 * Every response body, success and problem, parses with the strict documented schema
 * (docs/openapi.json is generated from the same schemas): no undocumented field leaks out.
 */
let token: string;
let world: World;
const strict = (schema: z.ZodType, body: unknown) => {
  const result = schema.safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
};

beforeAll(async () => {
  token = await platformToken();
  world = await seedWorld({}, { directWallet: true });
});

const successSchemas: Record<string, z.ZodType> = {
  '4.1 GET merchant config': resources.merchantConfigResource,
  '4.2 GET encryption keys': resources.encryptionKeysResource,
  '4.5 PUT platform payment methods': resources.paymentMethodsResource,
  '4.5 GET platform payment methods': resources.paymentMethodsResource,
  '4.6 POST tenant payment methods': resources.paymentMethodsResource,
  '4.6 GET tenant payment methods': resources.paymentMethodsResource,
  '4.7 PUT merchant config': resources.merchantConfigResource,
  '4.8 POST order': resources.createdOrderResource,
  '4.8 GET order': resources.orderResource,
  '4.9 POST hosted session': resources.hostedSessionResource,
  '4.14 POST payment link': resources.paymentLinkResource,
};

describe('documented response shapes', () => {
  it.each(ENDPOINTS.map((e) => [e.name, e] as const))('%s: success and problem bodies', async (name, endpoint) => {
    const { handler } = await endpoint.load();
    const ok = await invoke(handler, { ...endpoint.request(world), token });
    strict(successSchemas[name]!, ok.body);
    const problem = await invoke(handler, endpoint.request(world));
    expect(problem.status).toBe(401);
    strict(resources.problemResource, problem.body);
  });

  it('payments in every state', async () => {
    const authorised = await seedWorld();
    strict(resources.paymentResource, (await pay(authorised, token, await checkoutResponse())).body);
    const declined = await seedWorld({}, { amount: 1051 });
    strict(resources.paymentResource, (await pay(declined, token, await checkoutResponse())).body);
    const challenged = await seedWorld();
    const awaiting = await pay(challenged, token, await checkoutResponse({ card: 'visa-3ds' }));
    strict(resources.paymentResource, awaiting.body);
    const { cres } = await answerChallenge(awaiting.body.threeDs, '1234');
    strict(resources.paymentResource, (await completeThreeDs(challenged, token, cres!)).body);
    const direct = await payDirectly(world, token, {
      token: { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2029' },
      dynamicData: { dynamicDataValue: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' },
    });
    strict(resources.paymentResource, direct.body);
  });

  it('a 400 carries field errors in the documented shape', async () => {
    const { handler } = await ENDPOINTS.find((e) => e.name === '4.8 POST order')!.load();
    const response = await invoke(handler, { ...ENDPOINTS.find((e) => e.name === '4.8 POST order')!.request(world), token, body: { action: 'NOPE' } });
    expect(response.status).toBe(400);
    strict(resources.problemResource, response.body);
  });
});
