/**
 * The network name whose keys are trusted for sandbox merchants only (SPEC §5). A module of
 * its own so that the local stack (infra/local) can name it without loading the key ring.
 */
export const SANDBOX_NETWORK = 'sandbox';
