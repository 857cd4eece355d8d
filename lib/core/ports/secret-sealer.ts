/**
 * Seals a merchant's webhook signing secret for storage and opens it again (KMS in production,
 * bound to the merchant: a sealed secret moved to another merchant does not open).
 */
export interface SecretSealer {
  seal(secret: string, merchantRef: string): Promise<string>;
  open(sealed: string, merchantRef: string): Promise<string>;
}
