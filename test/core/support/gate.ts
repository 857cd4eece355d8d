/** A promise the test resolves: an acquirer answer that waits until the test lets it through. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return {
    /** Resolves once a call is waiting at the gate. */
    reached,
    open,
    answer: async <T>(_call: unknown, perform: () => T): Promise<T> => {
      entered();
      await opened;
      return perform();
    },
  };
}
