/**
 * A merchant's webhook configuration (SPEC 4.15), as stored. Secrets are sealed by KMS
 * (lib/adapters/kms/webhook-secret-sealer.ts): the record never holds one in the clear.
 */
export interface SealedSigningSecret {
  /** base64 KMS ciphertext, bound to the merchant by its encryption context. */
  sealed: string;
  createdAt: string;
  /** Set on a previous secret: it still signs deliveries until then. */
  expiresAt?: string;
}

export interface WebhookConfig {
  merchantRef: string;
  url: string;
  enabled: boolean;
  /** Current first; then previous secrets that still sign, newest first. */
  secrets: SealedSigningSecret[];
  createdAt: string;
  updatedAt: string;
  /** When the current secret replaced another (absent until the first rotation). */
  secretRotatedAt?: string;
  /** Optimistic concurrency: every write names the version it read. */
  version: number;
}
