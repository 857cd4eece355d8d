import type { ReplayClaim, ReplayStore, Refusal } from '../../core/ports/replay-store.js';
import { conflict, epochSeconds, type MemoryTables } from './tables.js';

/**
 * The replay guard of SPEC 4.3 step 4 in memory, as the DynamoDB store decides it
 * (replay-repository.ts): a checkout response is claimed by one payment; another payment's
 * claim holds until it expires (then it counts as absent); the same payment claims again and
 * gets back the refusal it recorded.
 */
export class MemoryReplayStore implements ReplayStore {
  constructor(
    private readonly tables: MemoryTables,
    private readonly ttlSeconds = 24 * 3600,
  ) {}

  async claim(replayKey: string, paymentRef: string, now: number): Promise<ReplayClaim> {
    const existing = this.tables.replay.get(replayKey);
    if (existing && existing.paymentRef !== paymentRef && !(existing.expiresAt < epochSeconds(now))) {
      return { outcome: 'held', paymentRef: existing.paymentRef };
    }
    // New, expired, or this payment's own: claimed (a refusal recorded on the record stays with it).
    this.tables.replay.set(replayKey, { ...existing, paymentRef, expiresAt: epochSeconds(now) + this.ttlSeconds });
    const refused = existing?.refused;
    if (refused?.paymentRef === paymentRef) return { outcome: 'claimed', refused: { code: refused.code, detail: refused.detail } };
    return { outcome: 'claimed' };
  }

  async refuse(replayKey: string, paymentRef: string, { code, detail }: Refusal): Promise<void> {
    const existing = this.tables.replay.get(replayKey);
    if (existing?.paymentRef !== paymentRef) throw conflict(existing);
    existing.refused = { paymentRef, code, detail };
  }
}
