'use strict';

/**
 * What the `osls` commands of this service get (serverless.yml `plugins`, listed first):
 *
 * - **Packaging in a temporary directory of its own, removed when osls exits.** To zip a
 *   function, serverless-esbuild copies it into `<tmpdir>/<function>-<pid>-<time>-<hex>/` and
 *   never removes the copy (its release step removes without `recursive` and ignores the
 *   failure): every `osls package` or `deploy` left 32 folders, 26 MB, in the system temp
 *   directory. For the commands that package, TMPDIR points at `<tmpdir>/osls-<random>/` for
 *   the life of the process (os.tmpdir() reads it on every call; children inherit it), and the
 *   directory goes when the process ends: on exit, or on a signal nobody else handles.
 *   `osls offline` zips nothing and writes nothing there, so it gets none (a SIGKILLed
 *   `npm start` leaves nothing either).
 * - **Credentials before packaging.** `osls deploy` (and `deploy function`) resolve the AWS
 *   credentials first, with the same provider chain the deployment uses, so a machine without
 *   them hears it at once rather than after minutes of packaging.
 * - **Refusals as one line.** The guard rails of infra/serverless/*.cjs refuse through
 *   infra/serverless/refusal.cjs; from here on a refusal is printed as one line and exit 1.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { reportRefusalsAsOneLine } = require('./refusal.cjs');

const COMMANDS_THAT_DEPLOY = new Set(['deploy', 'deploy function']);
const COMMANDS_THAT_PACKAGE = new Set(['package', ...COMMANDS_THAT_DEPLOY]);

class OslsRun {
  constructor(serverless) {
    this.serverless = serverless;
    this.command = (serverless.processedInput?.commands ?? []).join(' ');
    reportRefusalsAsOneLine();
    if (COMMANDS_THAT_PACKAGE.has(this.command)) privateTmpDir();
    this.hooks = {
      initialize: () => this.checkCredentials(),
    };
  }

  async checkCredentials() {
    if (!COMMANDS_THAT_DEPLOY.has(this.command)) return;
    const provider = this.serverless.getProvider('aws');
    // Throws osls' own ServerlessError (AWS_CREDENTIALS_NOT_FOUND, UNRECOGNIZED_AWS_PROFILE).
    await provider.getAwsSdkV3CredentialsProvider()();
  }
}

/** A fresh directory inside the system temp dir as TMPDIR, removed when this process ends. */
function privateTmpDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'osls-'));
  process.env.TMPDIR = dir;
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      // serverless-offline handles SIGINT/SIGTERM itself and exits (then `exit` removes the
      // directory); where nobody else listens, remove it and die of the signal as before.
      if (process.listenerCount(signal) > 0) return;
      remove();
      process.kill(process.pid, signal);
    });
  }
}

module.exports = OslsRun;
