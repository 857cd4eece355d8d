import type { Principal } from '../auth/principal.js';
import { coversOutlet } from '../auth/scope.js';
import type { Outlet } from '../domain/merchant.js';
import { NotFoundError } from '../errors.js';
import type { ConfigStore } from '../ports/config-store.js';

/** The outlet, if it exists and the caller's scope covers it; 404 otherwise, either way. */
export async function outletInScope(config: ConfigStore, principal: Principal, outletId: string): Promise<Outlet> {
  if (principal.kind === 'session' && principal.outletId !== outletId) throw new NotFoundError();
  const outlet = await config.getOutlet(outletId);
  if (!outlet || !coversOutlet(principal, outlet)) throw new NotFoundError();
  return outlet;
}
