/**
 * The one clock (epoch ms): every use case, store and adapter that needs the time is handed this
 * one, so a test that freezes time freezes it everywhere. The invocation's deadline stays wall
 * time (lib/core/deadline.ts): it is Lambda's own budget.
 */
export const clock: () => number = Date.now;
