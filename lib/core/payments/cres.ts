import * as z from 'zod';
import { InvalidRequestError } from '../errors.js';

/**
 * The final CRes of an EMV 3DS 2.2 browser challenge, as the ACS form-POSTs it (base64url
 * JSON) to the notification URL and the page hands it to 4.10. Only its shape is checked here:
 * what it claims is cross-checked against the challenge and the 3DS server's result, never
 * believed (lib/core/ports/three-ds-server.ts).
 */
const cresMessage = z.object({
  messageType: z.literal('CRes'),
  threeDSServerTransID: z.string().min(1).max(64),
  acsTransID: z.string().min(1).max(64),
  transStatus: z.string().length(1),
  messageVersion: z.string().max(16).optional(),
});

export type Cres = z.output<typeof cresMessage>;

export function parseCres(value: string): Cres {
  const parsed = cresMessage.safeParse(decodeJson(value));
  if (!parsed.success) {
    throw new InvalidRequestError('The cres is not a valid challenge result.', { errors: [{ path: 'cres', message: 'Not a CRes' }] });
  }
  return parsed.data;
}

function decodeJson(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
