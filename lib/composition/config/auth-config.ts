import * as z from 'zod';
import { parseEnv, urlString } from './parse-env.js';

const schema = z.object({
  AUTH_ISSUER: z.string().min(1),
  AUTH_AUDIENCE: z.string().min(1),
  AUTH_JWKS_URL: urlString,
});

export const authConfig = parseEnv(schema);
