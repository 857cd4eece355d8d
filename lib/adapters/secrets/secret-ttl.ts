/** How long a secret read by ARN (and what is built from it) serves a warm function: at most five minutes, like the webhook signing secrets. */
export const MAX_SECRET_TTL_MS = 5 * 60_000;
