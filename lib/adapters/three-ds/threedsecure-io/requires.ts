/**
 * What 3dsecure.io's AReq needs from a payment (areq tables: both are required with
 * deviceChannel 02): the ThreeDsServer port's `requires` of this adapter, in a module of its own
 * so that ./on-first-use.ts can answer it before the adapter is loaded.
 */
export const REQUIRES = { browserInfo: true, requestor: true } as const;
