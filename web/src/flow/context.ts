import type { ApiClient } from '../api.js';
import type { BootstrapResult } from '../bootstrap.js';
import type { ClickToPaySdk } from '../sdk/index.js';
import type { Loaded } from './state.js';
import type { FlowStore } from './store.js';

/**
 * What the flow's commands share: the store, and the two live objects that are not state
 * (the API client with the session token, the Click to Pay SDK instance).
 */
export interface FlowContext {
  boot: BootstrapResult;
  store: FlowStore;
  api?: ApiClient;
  sdk?: ClickToPaySdk;
  /** Leaves the page for the shop: the same window (no pop-up), which an app's WebView can intercept. */
  navigate: (url: string) => void;
}

/** The session's API client and what was loaded, once both exist. */
export function ready(ctx: FlowContext): { api: ApiClient; loaded: Loaded } | undefined {
  const loaded = ctx.store.getState().loaded;
  return ctx.api && loaded ? { api: ctx.api, loaded } : undefined;
}
