import table from '../../functions/routes.json' with { type: 'json' };

export interface RouteEntry {
  method: string;
  pattern: RegExp;
}

/** "GET /a/{b}/c" → { method: 'GET', pattern: /^\/a\/[^/]+\/c$/ } */
export const ROUTES: RouteEntry[] = table.functions.flatMap((fn) =>
  fn.routes.map((route) => {
    const [method, path] = route.split(' ') as [string, string];
    const source = path.split('/').map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : escape(segment))).join('/');
    return { method, pattern: new RegExp(`^${source}$`) };
  }),
);

function escape(segment: string): string {
  return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The methods a path answers to; empty when the path is unknown. */
export function allowedMethods(path: string): string[] {
  return [...new Set(ROUTES.filter((route) => route.pattern.test(path)).map((route) => route.method))];
}
