'use strict';

/**
 * A guard rail's refusal (a production stage with placeholder URLs, `*` as a CORS origin, a
 * malformed ARN …): a sentence for the operator, not a bug. It is thrown as an Error, so unit
 * tests and any caller see it. Under osls, the osls-run plugin (infra/serverless/osls-run.cjs)
 * calls `reportRefusalsAsOneLine()` first: osls would print an error thrown while it resolves
 * serverless.yml wrapped in "Cannot resolve serverless.yml: Variables resolution errored with
 * … Received rejection:" and the error's stack, which buries the sentence; instead the refusal
 * is printed as one line on stderr and the command exits 1 before anything is packaged.
 */
class Refusal extends Error {
  constructor(message) {
    super(message);
    this.name = 'Refusal';
  }
}

let oneLine = false;

function reportRefusalsAsOneLine() {
  oneLine = true;
}

/** Refuses with `message`; never returns. */
function refuse(message) {
  if (oneLine) {
    process.stderr.write(`Refused: ${message}\n`);
    process.exit(1);
  }
  throw new Refusal(message);
}

module.exports = { Refusal, refuse, reportRefusalsAsOneLine };
