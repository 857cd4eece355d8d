/**
 * What the fake received, for tests to count: every AReq (also refused ones, also a second one
 * for the same transaction), every 3DS Method and CReq post, every RReq the ACS sent. Card
 * numbers are not kept here (the last four only); the fake holds them in memory elsewhere,
 * as a real 3DS Server would.
 */
export interface AreqEntry {
  threeDSServerTransID: string;
  messageVersion: string;
  threeDSCompInd: string;
  acctLast4: string;
  /** The ARes transStatus, or `erro <code>`, or the fault that swallowed it. */
  answer: string;
  at: number;
}

export class Ledger {
  readonly areqs: AreqEntry[] = [];
  readonly methodPosts: { threeDSServerTransID: string; completed: boolean }[] = [];
  readonly creqs: { acsTransID: string; challengeWindowSize: string }[] = [];
  readonly rreqs: { threeDSServerTransID: string; transStatus: string }[] = [];
  readonly postauths: string[] = [];
  /** AReqs that said threeDSCompInd Y although the 3DS Method page never completed. */
  readonly methodClaims: string[] = [];

  /** How many AReqs reached the fake for a transaction: the proof of at-most-once. */
  areqCount(threeDSServerTransID: string): number {
    return this.areqs.filter((entry) => entry.threeDSServerTransID === threeDSServerTransID).length;
  }
}
