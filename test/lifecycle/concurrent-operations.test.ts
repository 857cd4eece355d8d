/**
 * SPEC §3 under concurrency (4.11–4.13): whatever mix of captures, refunds and a reversal
 * arrives at once, even while the acquirer hangs, the totals are the sums of what succeeded,
 * nothing is over-drawn, and the acquirer sees each operation at most once.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizer } from '../support/sandbox-acquirer.js';
import { lifecycleDeps } from '../../lib/composition/lifecycle.js';
import { aed, authorizedWorld, capture, expectConsistent, refund, reverse } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  lifecycleDeps.settings.authorizerTimeoutMs = 10_000;
  lifecycleDeps.settings.inFlightMs = 10_000;
});

describe('concurrent captures, refunds and a reversal never over-capture, over-refund or send twice', () => {
  it('partial captures, "capture the rest", refunds and a reversal, all at once: the books balance and nothing stays PENDING', async () => {
    for (let round = 0; round < 3; round++) {
      const w = await authorizedWorld({ amount: 1000 });
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => capture(w, token, aed(150))),
        capture(w, token),
        capture(w, token),
        reverse(w, token),
        ...Array.from({ length: 4 }, () => refund(w, token, aed(100))),
        refund(w, token),
      ]);
      for (const a of answers) expect([200, 201, 409, 422, 503], a.raw).toContain(a.status); // 503: the outbox limit (outbox-limit.test.ts)
      const p = await expectConsistent(w);
      expect(Object.values(p.operations ?? {}).every((o) => o.state !== 'PENDING')).toBe(true);
    }
  });

  it('the same mix while the acquirer hangs on some captures and refunds (amounts ending 99): the books balance, and the abandoned ones settle from lookup, never sent again', async () => {
    lifecycleDeps.settings.authorizerTimeoutMs = 150;
    lifecycleDeps.settings.inFlightMs = 300;
    const w = await authorizedWorld({ amount: 5000 });
    await capture(w, token, aed(1000));
    const answers = await Promise.all([
      capture(w, token, aed(199)),
      capture(w, token, aed(300)),
      capture(w, token),
      refund(w, token, aed(299)),
      refund(w, token, aed(200)),
      reverse(w, token),
    ]);
    expect(answers.filter((a) => a.status === 502).length).toBeGreaterThan(0);
    await expectConsistent(w);
    await new Promise((resolve) => setTimeout(resolve, 500)); // past every in-flight window
    const modify = vi.spyOn(authorizer, 'modify');
    await refund(w, token, aed(1)); // settles the abandoned ones from lookup first
    const settled = await expectConsistent(w);
    expect(Object.values(settled.operations ?? {}).filter((o) => o.state === 'PENDING')).toEqual([]);
    expect(modify).toHaveBeenCalledTimes(1); // only the new refund went to the acquirer
  });
});
