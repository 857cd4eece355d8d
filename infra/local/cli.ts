import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>['values'];

/**
 * The command line of every `npm run` CLI: `--help`/`-h` prints the usage on stdout and exits 0;
 * an unknown option, a missing value or a stray argument is one line on stderr and exit 2 —
 * never a stack trace. Commands configured by environment variables alone pass no options.
 */
export function parseCommandLine<const O extends Options>(command: string, usage: string, options: O, args: string[] = process.argv.slice(2)): Values<O> {
  let parsed: { values: Record<string, unknown> };
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (error) {
    // node:util's messages are one sentence plus advice on `--`; the sentence is what matters.
    usageError(
      command,
      String((error as Error).message)
        .split('. ')[0]!
        .replace(/\.$/, ''),
    );
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  return parsed.values as Values<O>;
}

/** A bad argument: one line naming the command, and the conventional exit code for misuse. */
export function usageError(command: string, message: string): never {
  process.stderr.write(`${command}: ${message} (see --help)\n`);
  process.exit(2);
}

/**
 * For the CLIs whose stdout is a value (a token, a request body). npm writes its
 * "> package@version script" banner on stdout before the script starts, unless it runs silent
 * (`npm run -s …`) or with --json; there is no per-script setting. Captured (`$(npm run token …)`,
 * `> file`), the banner becomes part of the value: a token that fails with 401 far from the cause.
 * So when stdout is not a terminal and npm has put its banner there, refuse with one line that
 * says how to run it. npm tells its scripts its settings (npm_config_loglevel, npm_config_json).
 */
export function refuseNpmBannerOnStdout(script: string): void {
  const env = process.env;
  if (env.npm_lifecycle_event !== script || process.stdout.isTTY) return;
  if (env.npm_config_loglevel === 'silent' || env.npm_config_json === 'true') return;
  process.stderr.write(
    `${script}: npm printed its "> ${script}" banner on stdout ahead of the output; run \`npm run -s ${script} -- …\` to capture or redirect it\n`,
  );
  process.exit(2);
}
