import { logger, parseLevel } from '../core/ports/logger.js';

/** LOG_LEVEL (debug | info | warn | error; default info) for the root logger and all its children. */
logger.setLevel(parseLevel(process.env.LOG_LEVEL) ?? 'info');

export { logger };
