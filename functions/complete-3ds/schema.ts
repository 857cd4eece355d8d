import * as z from 'zod';
import { browserInfoSchema } from '../../lib/core/domain/browser-info.js';

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Expected base64url');

/**
 * SPEC 4.10, one of:
 * - `{ cres }`: the challenge result, as the ACS handed it to the browser;
 * - `{ threeDSCompInd, browserInfo }`: the 3DS Method ran (`Y`: its page reported completion
 *   within 10 s; `N`: it did not), with the browser's data for the AReq (docs/integrating/three-ds.md).
 */
export const completeThreeDsBody = z.union([
  z.strictObject({ cres: base64url(8192) }),
  z.strictObject({ threeDSCompInd: z.enum(['Y', 'N']), browserInfo: browserInfoSchema }),
]);
