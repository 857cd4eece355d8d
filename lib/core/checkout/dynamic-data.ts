/**
 * The `dynamicData` of the decrypted payload (SPEC §4.3 step 6): its types, and which entry a
 * credential is authorized with.
 */
import * as z from 'zod';

export const ECI = /^\d{2}$/;

/**
 * SPEC §4.3 step 6: the EMVCo dynamic data types the networks send. LONG_FORM is Visa's
 * cryptogram, SHORT_FORM Mastercard's (DSRP/UCAF), TAVV and DTVV Visa's token verification
 * values, DYNAMIC_CARD_SECURITY_CODE a dynamic CVC for a PAN (Mastercard), NONE "no dynamic
 * data" (its entry may come without a value). Anything else is refused: what it would mean
 * to the acquirer is unknown.
 */
export const DYNAMIC_DATA_TYPES = [
  'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM',
  'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM',
  'TAVV',
  'DTVV',
  'DYNAMIC_CARD_SECURITY_CODE',
  'NONE',
] as const;
export type DynamicDataType = (typeof DYNAMIC_DATA_TYPES)[number];

/** What a network token needs to be authorized: a cryptogram (or Visa's token verification values). */
const TOKEN_CRYPTOGRAM_TYPES: readonly (DynamicDataType | undefined)[] = [
  'CARD_APPLICATION_CRYPTOGRAM_LONG_FORM',
  'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM',
  'TAVV',
  'DTVV',
];

export const dynamicDataSchema = z.looseObject({
  dynamicDataValue: z.string().min(1).max(512).optional(),
  dynamicDataType: z.enum(DYNAMIC_DATA_TYPES).optional(),
  eci: z.string().regex(ECI).optional(),
});
export type DynamicData = z.output<typeof dynamicDataSchema>;

/**
 * The dynamic data to authorize with. An entry of type NONE, or without a value, carries
 * nothing. A network token needs a cryptogram-typed entry (an untyped one is taken as a
 * cryptogram: older Direct Wallet callers send no type); a dynamic CVC alone is not enough
 * for a token. A PAN takes a cryptogram if there is one, else its dynamic CVC. Among several
 * (e.g. a dynamic CVC next to the cryptogram) the cryptogram wins, then the first.
 */
export function pickCryptogram(
  kind: 'token' | 'card',
  dynamicData: DynamicData | DynamicData[] | undefined,
): (DynamicData & { dynamicDataValue: string }) | undefined {
  const entries = dynamicData === undefined ? [] : Array.isArray(dynamicData) ? dynamicData : [dynamicData];
  const usable = entries.filter((e): e is DynamicData & { dynamicDataValue: string } => e.dynamicDataType !== 'NONE' && e.dynamicDataValue !== undefined);
  const cryptogram =
    usable.find((e) => e.dynamicDataType !== undefined && TOKEN_CRYPTOGRAM_TYPES.includes(e.dynamicDataType)) ??
    usable.find((e) => e.dynamicDataType === undefined);
  return kind === 'token' ? cryptogram : (cryptogram ?? usable[0]);
}
