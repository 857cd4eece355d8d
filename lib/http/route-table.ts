import { routeTable } from './routes.js';

export interface RouteEntry {
  method: string;
  pattern: RegExp;
}

/** The sandbox's paths: deployed only on stages with the sandbox (infra/serverless/stage.cjs). */
const SANDBOX_PATH = /^\/sandbox\//;

/**
 * The routes of the table (./routes.ts) as the fallback matches them: "GET /a/{b}/c" →
 * { method: 'GET', pattern: /^\/a\/[^/]+\/c$/ }; without /sandbox/* unless `sandbox`.
 */
export function routeEntries(options: { sandbox: boolean }): RouteEntry[] {
  return routeTable().flatMap((fn) =>
    fn.routes.flatMap((route) => {
      const [method, path] = route.split(' ') as [string, string];
      if (!options.sandbox && SANDBOX_PATH.test(path)) return [];
      const source = path
        .split('/')
        .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : escapeSegment(segment)))
        .join('/');
      return [{ method, pattern: new RegExp(`^${source}$`) }];
    }),
  );
}

function escapeSegment(segment: string): string {
  return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The methods a path answers to among `routes`; empty when the path is unknown. */
export function allowedMethods(path: string, routes: RouteEntry[]): string[] {
  return [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
}
