import * as z from 'zod';
import { CARD_BRANDS, THREE_DS_POLICIES } from '../../lib/core/domain/merchant.js';
import { normaliseOrigin } from '../../lib/core/domain/redirect-url.js';
import { threeDsRequestorSchema } from '../../lib/core/domain/three-ds-requestor.js';
import { freeText } from '../../lib/http/free-text.js';
import { ref } from '../../lib/http/params.js';

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
    /**
     * SPEC 4.7 `threeDsRequestor` (production step-up, SPEC 4.17): the AReq's merchant fields,
     * per brand what the directory servers assigned. When given, every card brand needs its entry.
     */
    threeDsRequestor: threeDsRequestorSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.threeDsRequestor) return;
    for (const brand of body.cardBrands) {
      if (!body.threeDsRequestor.brands[brand])
        ctx.addIssue({ code: 'custom', path: ['threeDsRequestor', 'brands', brand], message: 'Required for each of cardBrands' });
    }
  });
