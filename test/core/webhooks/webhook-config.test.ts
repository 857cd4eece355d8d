import { describe, expect, it } from 'vitest';
import { InvalidRequestError, NotFoundError } from '../../../lib/core/errors.js';
import { getWebhookConfig, putWebhookConfig, rotateWebhookSecret, signingSecrets } from '../../../lib/core/webhooks/webhook-config.js';
import { deliveryOf } from '../support/delivery.js';
import { coreWorld, MERCHANT, platform, tenantPrincipal } from '../support/world.js';

/** SPEC 4.15 configuration (lib/core/webhooks/webhook-config.ts): one URL, secrets shown once, sealed at rest, rotated with 24 h overlap. */
const HOUR = 3_600_000;

describe('webhook configuration', () => {
  it('the first PUT creates it with a signing secret, shown in that answer only and stored sealed; a later PUT changes the URL and keeps the secret', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    const created = await putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/a' });
    expect(created).toMatchObject({ url: 'https://hooks.shop.example/a', enabled: true, signingSecret: expect.stringMatching(/^whsec_/) });
    expect(JSON.stringify(await world.stores.webhooks.get(MERCHANT))).not.toContain(created.signingSecret!);
    const updated = await putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/b', enabled: false });
    expect(updated).toEqual({ url: 'https://hooks.shop.example/b', enabled: false });
    expect((await signingSecrets(webhookDeps, MERCHANT, world.clock.now()))?.secrets).toEqual([created.signingSecret]);
    expect(await getWebhookConfig(webhookDeps, platform, MERCHANT)).not.toHaveProperty('signingSecret');
  });

  it('two first PUTs at once create one configuration: one secret is shown, the other request becomes an update and shows none', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    const answers = await Promise.all([
      putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/a' }),
      putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/b' }),
    ]);
    const shown = answers.filter((answer) => answer.signingSecret !== undefined);
    expect(shown).toHaveLength(1);
    expect((await signingSecrets(webhookDeps, MERCHANT, world.clock.now()))?.secrets).toEqual([shown[0]!.signingSecret]);
    expect((await world.stores.webhooks.get(MERCHANT))?.version).toBe(2);
  });

  it('a URL the guard refuses is never stored (400)', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    await expect(putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'http://hooks.shop.example/a' })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await world.stores.webhooks.get(MERCHANT)).toBeUndefined();
  });

  it('a rotation makes a new current secret; the previous one keeps signing for 24 h, then stops', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    const { signingSecret: first } = await putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/a' });
    const rotated = await rotateWebhookSecret(webhookDeps, platform, MERCHANT);
    expect(rotated.previousSecretExpiresAt).toBe(new Date(world.clock.now() + 24 * HOUR).toISOString());
    const live = async () => (await signingSecrets(webhookDeps, MERCHANT, world.clock.now()))?.secrets;
    expect(await live()).toEqual([rotated.signingSecret, first]);
    world.clock.advance(24 * HOUR);
    expect(await live()).toEqual([rotated.signingSecret]);
  });

  it('two rotations at once both land, one on top of the other: no secret shown to a merchant is lost', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    const { signingSecret: first } = await putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/a' });
    const [a, b] = await Promise.all([rotateWebhookSecret(webhookDeps, platform, MERCHANT), rotateWebhookSecret(webhookDeps, platform, MERCHANT)]);
    const live = (await signingSecrets(webhookDeps, MERCHANT, world.clock.now()))!.secrets;
    expect(live).toHaveLength(3);
    expect(new Set(live)).toEqual(new Set([first, a.signingSecret, b.signingSecret]));
  });

  it('rotating without a configuration is 404; a token narrowed to some of the merchant’s outlets never reaches it (404)', async () => {
    const world = await coreWorld();
    const { webhookDeps } = deliveryOf(world);
    await expect(rotateWebhookSecret(webhookDeps, platform, MERCHANT)).rejects.toBeInstanceOf(NotFoundError);
    await putWebhookConfig(webhookDeps, platform, MERCHANT, { url: 'https://hooks.shop.example/a' });
    await expect(getWebhookConfig(webhookDeps, tenantPrincipal({ outletIds: ['another-outlet'] }), MERCHANT)).rejects.toBeInstanceOf(NotFoundError);
    expect((await getWebhookConfig(webhookDeps, tenantPrincipal({ outletIds: ['o-core'] }), MERCHANT)).url).toBe('https://hooks.shop.example/a');
  });
});
