import * as z from 'zod';
import { CARD_BRANDS, THREE_DS_POLICIES } from '../../lib/core/domain/merchant.js';
import { normaliseOrigin } from '../../lib/core/domain/redirect-url.js';
import { threeDsRequestorSchema } from '../../lib/core/domain/three-ds-requestor.js';
import { freeText } from '../../lib/http/free-text.js';
import { ref } from '../../lib/http/params.js';
import { processorConfig } from '../../lib/http/processor-config.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** One bare origin (https, or http on a loopback host), normalised; anything else is a 400 naming the entry. */
const redirectOrigin = z
  .string()
  .max(300)
  .transform((raw, ctx) => {
    const origin = normaliseOrigin(raw);
    if (origin === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'Expected a bare origin like https://shop.example.com (https, or http on a loopback host; no path, query, fragment or credentials)',
      });
      return z.NEVER;
    }
    return origin;
  });

export const onboardingBody = z
  .object({
    tenantRef: ref,
    dpaId: text(128),
    dpaClientId: text(128),
    /** Shown to shoppers (the Click to Pay DPA name): merchant free text. */
    dpaName: freeText(text(120)),
    cardBrands: z
      .array(z.enum(CARD_BRANDS))
      .min(1)
      .max(CARD_BRANDS.length)
      .refine((b) => new Set(b).size === b.length, 'Duplicate card brand'),
    locale: z
      .string()
      .regex(/^[a-z]{2}_[A-Z]{2}$/, 'Expected a locale like en_AE')
      .default('en_US'),
    environment: z.enum(['sandbox', 'production']).default('sandbox'),
    threeDsPolicy: z.enum(THREE_DS_POLICIES).default('risk-based'),
    outlets: z
      .array(ref)
      .max(100)
      .refine((o) => new Set(o).size === o.length, 'Duplicate outlet id'),
    /** Duplicates after normalisation are dropped. */
    redirectOrigins: z
      .array(redirectOrigin)
      .max(20)
      .transform((origins) => [...new Set(origins)])
      .optional(),
    // 4.1's read-only fields, so that the body GET answered can be sent back as it is
    // (GET-modify-PUT): merchantRef must name the path's merchant (the handler checks); the key id
    // and the effective enablement are not set here (rotation; 4.5/4.6), and are ignored.
    merchantRef: ref.optional().describe("Read-only (4.1's body sent back): the path's merchant, or absent; another one is a 400"),
    encryptionKeyId: z.string().max(256).optional().describe("Read-only (4.1's body sent back): ignored; keys change by rotation"),
    clickToPayEnabled: z.boolean().optional().describe("Read-only (4.1's body sent back): ignored; enablement is set with 4.5/4.6"),
    directWalletEnabled: z.boolean().optional().describe("Read-only (4.1's body sent back): ignored; enablement is set with 4.5/4.6"),
    /** SPEC 4.7: who authorizes for the merchant; credentials by ARN only (lib/http/processor-config.ts). */
    processor: processorConfig.optional(),
    /**
     * SPEC 4.7 `threeDsRequestor` (production step-up, SPEC 4.17): the AReq's merchant fields,
     * per brand what the directory servers assigned. When given, every card brand needs its entry.
     */
    threeDsRequestor: threeDsRequestorSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    // A production merchant is refused here, not at its first payment, when nothing can authorize for it.
    if (body.environment === 'production' && !body.processor) {
      ctx.addIssue({ code: 'custom', path: ['processor'], message: 'A production merchant needs a processor (adyen or checkout_com)' });
    }
    // A sandbox merchant is authorized by the sandbox acquirer, never a real processor.
    if (body.environment === 'sandbox' && body.processor && body.processor.name !== 'sandbox') {
      ctx.addIssue({ code: 'custom', path: ['processor', 'name'], message: 'A sandbox merchant uses the sandbox acquirer: processor sandbox, or none' });
    }
    for (const brand of body.threeDsRequestor ? body.cardBrands : []) {
      if (!body.threeDsRequestor?.brands[brand]) {
        ctx.addIssue({ code: 'custom', path: ['threeDsRequestor', 'brands', brand], message: 'Required for each of cardBrands' });
      }
    }
  })
  .transform(({ encryptionKeyId: _kid, clickToPayEnabled: _c2p, directWalletEnabled: _dw, ...body }) => body);
