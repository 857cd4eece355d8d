import { isCardLikeNumber, REDACTED_CARD_NUMBER, redactCardNumbers } from '../domain/card-numbers.js';

/**
 * Structured JSON logger. One line per event on stdout (CloudWatch-friendly). Values under
 * sensitive-looking keys are replaced, and card numbers (Luhn-valid 13–19 digit runs, see
 * redact-card-numbers.ts) are masked in every string, so a careless
 * `logger.info('x', { body })` cannot leak card data — and ids such as UUIDs stay whole.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A level name, or undefined if it is none (LOG_LEVEL is parsed by the composition). */
export const parseLevel = (value: string | undefined): Level | undefined => (value !== undefined && value in order ? (value as Level) : undefined);

// Cryptograms also travel as TAVV/CAVV/authenticationValue (3DS); one-time codes as otp.
const SENSITIVE_KEY =
  /token|authorization|secret|password|cryptogram|tavv|cavv|authenticationvalue|^otp$|otpcode|otpvalue|pan$|primaryaccount|cvv|cvc|securitycode|privatekey|plaintext|ciphertext|encrypted|jwe|jws|dynamicdata|^d$|^p$|^q$|creq|cres/i;
const MAX_DEPTH = 6;

export type LogFields = Record<string, unknown>;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCardNumbers(value);
  if (typeof value === 'number') return isCardLikeNumber(value) ? REDACTED_CARD_NUMBER : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (value instanceof Error) return serializeError(value, depth);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? '[redacted]' : redact(inner, depth + 1);
  }
  return out;
}

/** Error name, message and cause chain; stacks only at debug level to keep lines short. */
function serializeError(error: Error, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: redact(error.message) };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  if (error.cause !== undefined) out.cause = redact(error.cause, depth + 1);
  return out;
}

export class Logger {
  /**
   * The context, redacted once here rather than on every line: a request's child logger
   * writes several lines with the same route, caller and ids, and redaction is the costly
   * part of a line (it is on the payment path, see `npm run bench`).
   */
  private readonly context: LogFields;

  /** Shared by a logger and its children, so the root's level (set by the composition) reaches them all. */
  private readonly threshold: { level: Level };

  constructor(
    context: LogFields = {},
    minLevel: Level | { level: Level } = 'info',
    private readonly sink: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {
    this.context = redact(context) as LogFields;
    this.threshold = typeof minLevel === 'string' ? { level: minLevel } : minLevel;
  }

  child(fields: LogFields): Logger {
    return new Logger({ ...this.context, ...fields }, this.threshold, this.sink);
  }

  /** The composition sets the level from its configuration (LOG_LEVEL) once, at cold start. */
  setLevel(level: Level): void {
    this.threshold.level = level;
  }

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  private write(level: Level, message: string, fields?: LogFields): void {
    if (order[level] < order[this.threshold.level]) return;
    const entry = { level, time: new Date().toISOString(), message: redactCardNumbers(message), ...this.context, ...(fields && (redact(fields) as LogFields)) };
    this.sink(JSON.stringify(entry));
  }
}

/**
 * The service's root logger: every request's logger is a child of it. Its level is `info` until
 * the composition sets the configured one (lib/composition/logging.ts).
 */
export const logger = new Logger({ service: 'click-to-pay' });
