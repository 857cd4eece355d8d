import * as z from 'zod';
import { commaList, parseEnv } from './parse-env.js';

/** KMS key ids, ARNs or aliases of the payload-decryption keys, current first. */
const schema = z.object({
  PAYLOAD_KEY_IDS: commaList.pipe(z.array(z.string().min(1)).min(1)),
});

export const keysConfig = parseEnv(schema);
