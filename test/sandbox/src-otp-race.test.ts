import { StoreConflictError } from '../../lib/core/ports/store-conflict.js';
import { describe, expect, it } from 'vitest';

import { SrcError } from '../../lib/adapters/sandbox/src/errors.js';
import { SandboxSrcNetwork } from '../../lib/adapters/sandbox/src/network.js';
import { OTP, startOtp } from '../../lib/adapters/sandbox/src/otp.js';
import { DEFAULT_SRC_LIMITS } from '../../lib/adapters/sandbox/src/rate-limits.js';
import type { SrcSession, SrcSessionState } from '../../lib/adapters/sandbox/src/session-store.js';

/**
 * A code is validated against the consumer whose counter was charged. If an identity lookup
 * switched the session to another consumer between the read and the write, the code validates
 * nothing (it was sent to the consumer before).
 */
describe('sandbox SRC: a lookup racing a code validation', () => {
  it('the code sent to one consumer never authenticates the session as another', async () => {
    const T0 = 1_800_000_000_000;
    const fresh: SrcSessionState = { dpaId: 'd', cardBrands: ['VISA'], authenticated: false, locked: false, enrolledCards: [] };
    const asReturning: SrcSession = { state: startOtp(fresh, 'returning', 'EMAIL', T0), version: 1, expiresAt: T0 / 1000 + 600 };
    const asSmsOnly: SrcSession = { state: startOtp(fresh, 'sms-only', 'SMS', T0), version: 2, expiresAt: T0 / 1000 + 600 };
    const reads = [asReturning, asSmsOnly];
    const saved: SrcSessionState[] = [];
    let firstSave = true;
    const sessions = {
      get: async () => reads.shift() ?? asSmsOnly,
      save: async (_id: string, _session: SrcSession, state: SrcSessionState) => {
        if (firstSave) {
          firstSave = false;
          throw new StoreConflictError(undefined); // the concurrent lookup wrote first
        }
        saved.push(state);
      },
    };
    const charged: string[] = [];
    const network = new SandboxSrcNetwork({
      sessions: sessions as never,
      signingKeys: {} as never,
      payloadKeys: { publicKeys: async () => [] },
      limiter: { consume: async (_limit, subject) => void charged.push(subject), check: async () => undefined },
      limits: DEFAULT_SRC_LIMITS,
      now: () => T0 + 1_000,
    });
    const error = await network.validateOtp({ sessionId: 's', otp: OTP.code }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SrcError);
    expect((error as SrcError).reason).toBe('NO_PENDING_OTP');
    expect(saved.every((state) => !state.authenticated)).toBe(true);
  });
});
