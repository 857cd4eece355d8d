import type { MiddlewareObj } from '@middy/core';
import type { Authenticator, PaymentIdsInPath } from '../core/auth/authenticator.js';
import { describePrincipal } from '../core/auth/principal.js';
import { PermissionDeniedError, PlatformTokenRequiredError } from '../core/errors.js';
import { headerValue } from './json-body.js';
import type { AccessRequirement, ApiContext, ApiEvent, ApiResponse, SessionTokenPolicy } from './types.js';

/**
 * Thin glue: the Authenticator verifies the bearer token; this refuses hosted-session tokens
 * on routes that do not allow them, then checks the route's realm or permission (SPEC §1
 * table). Scope (tenant/merchant/outlet) needs the resource, so the use case checks it and
 * answers 404.
 */
export function authenticate(options: {
  authenticator: Authenticator;
  requirement: AccessRequirement;
  /** Default `'refused'`: see SessionTokenPolicy. */
  sessionTokens?: SessionTokenPolicy | undefined;
  /** The payment the route names, read beside a hosted session (Authenticator.authenticateReadingAhead). */
  readAhead?: ((event: ApiEvent) => PaymentIdsInPath | undefined) | undefined;
}): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  const { authenticator, requirement } = options;
  const sessionTokens = options.sessionTokens ?? 'refused';
  return {
    before: async (request) => {
      const header = headerValue(request.event, 'authorization');
      const ids = options.readAhead?.(request.event);
      const { principal, readAhead } = ids
        ? await authenticator.authenticateReadingAhead(header, ids)
        : { principal: await authenticator.authenticate(header), readAhead: undefined };
      const { api } = request.context;
      api.principal = principal;
      if (readAhead) api.readAhead = readAhead;
      api.logger = api.logger.child({ caller: describePrincipal(principal) });
      if (principal.kind === 'session' && sessionTokens !== 'allowed') {
        throw new PermissionDeniedError('A hosted-session token cannot use this endpoint.');
      }
      if (requirement.kind === 'platform' && principal.kind !== 'platform') {
        throw new PlatformTokenRequiredError();
      }
      const needsPermission =
        requirement.kind === 'permission' ||
        (requirement.kind === 'platformOrPermission' && principal.kind !== 'platform') ||
        (requirement.kind === 'sessionOrPermission' && principal.kind !== 'session');
      if (needsPermission && !principal.permissions.has(requirement.permission)) {
        throw new PermissionDeniedError(`This token lacks the ${requirement.permission} permission.`);
      }
    },
  };
}
