/**
 * What the vitest projects provide their tests (vitest.config.ts): which store engine the
 * store contract runs against — the in-memory stores (project `core`) or the DynamoDB stores
 * over the global setup's dynalite / DynamoDB Local (project `integration`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    storeEngine: 'memory' | 'dynamodb';
  }
}

export {};
