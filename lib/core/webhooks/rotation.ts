import type { SealedSigningSecret } from '../domain/webhook-config.js';

/** SPEC 4.15: after a rotation the previous secret signs every delivery for 24 h more. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/**
 * Rotating again within 24 h keeps the older secrets until their own expiry, up to this many
 * besides the current one: enough for any honest rotation, and a bound on the item size and
 * on the signatures each delivery carries.
 */
export const MAX_PREVIOUS_SECRETS = 4;

/** The current secret (first) never expires; a previous one until its `expiresAt`. */
export function isLive(secret: SealedSigningSecret, index: number, nowMs: number): boolean {
  return index === 0 || (secret.expiresAt !== undefined && Date.parse(secret.expiresAt) > nowMs);
}

/** The secrets that sign a delivery now: current first, then unexpired previous ones. */
export function liveSecrets(secrets: readonly SealedSigningSecret[], nowMs: number): SealedSigningSecret[] {
  return secrets.filter((secret, index) => isLive(secret, index, nowMs));
}

/**
 * `fresh` becomes current; the current one becomes previous until now + 24 h; previous
 * secrets that already expired are dropped, the rest kept (newest first, bounded).
 */
export function rotateSecrets(
  secrets: readonly SealedSigningSecret[],
  fresh: SealedSigningSecret,
  nowMs: number,
): { secrets: SealedSigningSecret[]; previousExpiresAt: string } {
  const previousExpiresAt = new Date(nowMs + SECRET_OVERLAP_MS).toISOString();
  const [current, ...older] = liveSecrets(secrets, nowMs);
  const previous = current ? [{ ...current, expiresAt: previousExpiresAt }, ...older] : older;
  return { secrets: [fresh, ...previous.slice(0, MAX_PREVIOUS_SECRETS)], previousExpiresAt };
}
