import { NotFoundError } from '../../lib/core/errors.js';
import { MethodNotAllowedError } from '../../lib/http/errors.js';
import { problemResponse } from '../../lib/http/problem-details.js';
import { allowedMethods, routeEntries } from '../../lib/http/route-table.js';
import type { ApiEvent, ApiResponse } from '../../lib/http/types.js';
import { fallbackConfig } from '../../lib/composition/config/fallback-config.js';

/** The routes this stage deploys: /sandbox/* only where the sandbox is (SANDBOX_ROUTES). */
const routes = routeEntries({ sandbox: fallbackConfig.SANDBOX_ROUTES === 'deployed' });

/**
 * The `$default` route: anything no endpoint matched. A known path with another method is
 * a 405 with `Allow`; everything else is a 404. Both as problem details (SPEC §2).
 */
export const handler = async (event: ApiEvent): Promise<ApiResponse> => {
  const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
  const method = event.requestContext?.http?.method ?? 'GET';
  const requestId = event.requestContext?.requestId;
  const allowed = allowedMethods(path, routes);
  if (allowed.length === 0 || allowed.includes(method)) return problemResponse(new NotFoundError(), requestId);
  const response = problemResponse(new MethodNotAllowedError(`Use ${allowed.join(', ')} on this path.`), requestId);
  response.headers.Allow = allowed.join(', ');
  return response;
};
