import * as z from 'zod';

/**
 * SPEC 4.7 `threeDsRequestor`: the onboarding schema (docs/design/three-ds-server.md §5),
 * kept on the merchant (lib/core/domain/merchant.ts). What the directory servers assign per brand
 * (the requestor id and name, the acquirer BIN and merchant id) is per brand; the rest is the
 * merchant's. Limits are the AReq's (areq_220 / areq_231; requestor id/name EMV 3DS 2.2 Table A.1),
 * so onboarding refuses what an AReq could not carry, instead of every payment failing later.
 * None of it is secret.
 */
const digits = (n: number) => z.string().regex(new RegExp(`^\\d{${n}}$`));
/** ISO 3166-1 numeric; 901–999 are not valid (specification_common.rst "country"). */
const country = digits(3).refine((code) => Number(code) < 901, 'Expected an ISO 3166-1 numeric country code');
const https = z.url({ protocol: /^https$/ }).max(2048);

const brandRequestor = z
  .object({
    requestorId: z.string().min(1).max(35),
    requestorName: z.string().min(1).max(40),
    acquirerBin: z.string().regex(/^\d{1,11}$/, 'Expected the acquirer BIN the directory server assigned (up to 11 digits)'),
    acquirerMerchantId: z.string().min(1).max(35),
    acquirerCountryCode: country,
  })
  .strict();

export const threeDsRequestorSchema = z
  .object({
    /** The merchant's website or customer-care site (threeDSRequestorURL; https: 2.3.1 requires it). */
    requestorUrl: https,
    merchantName: z.string().min(1).max(40),
    merchantCountryCode: country,
    mcc: digits(4),
    brands: z
      .object({ visa: brandRequestor.optional(), mastercard: brandRequestor.optional(), amex: brandRequestor.optional(), discover: brandRequestor.optional() })
      .strict()
      .refine((brands) => Object.values(brands).some(Boolean), 'At least one brand'),
  })
  .strict();

export type ThreeDsRequestorConfig = z.output<typeof threeDsRequestorSchema>;
