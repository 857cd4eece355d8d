/**
 * Node's Web Crypto key type under the global name jose's types use (`CryptoKey`), which the
 * DOM library declares and @types/node does not: the server is compiled without DOM types.
 */
declare global {
  type CryptoKey = import('node:crypto').webcrypto.CryptoKey;
}

export {};
