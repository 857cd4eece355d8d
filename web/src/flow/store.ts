import { flowReducer, type FlowAction } from './reducer.js';
import { initialState, type FlowState } from './state.js';

/**
 * The page's one state container: the reducer's state, readable at any time by the async
 * commands (a command awaiting the network reads what is current when it resumes, not what
 * its render saw) and observed by the App, which re-renders on every change.
 */
export interface FlowStore {
  getState(): FlowState;
  dispatch(action: FlowAction): void;
  subscribe(listener: () => void): () => void;
}

export function createFlowStore(initial: FlowState = initialState): FlowStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = flowReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
