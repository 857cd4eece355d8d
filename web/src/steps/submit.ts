import type { TargetedSubmitEvent } from 'preact';

/** The submit event of a step's form. */
export type Submit = TargetedSubmitEvent<HTMLFormElement>;
