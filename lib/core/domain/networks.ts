/** The network name whose keys are trusted for sandbox merchants only (SPEC §5). */
export const SANDBOX_NETWORK = 'sandbox';
