'use strict';

/**
 * The route table (lib/http/routes.ts, the one description of every function) as the
 * infrastructure code reads it: loaded with tsx's CommonJS API (the Serverless Framework
 * `require`s these files; tsx is a dev dependency, like osls itself), checked, and cut to what
 * a stage deploys. functions.cjs, iam.cjs and http-api.cjs all read it from here, so none of
 * them needs another.
 */

const tsx = require('tsx/cjs/api');

const ROUTES_MODULE = '../../lib/http/routes.ts';
const ROUTE_KEY = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)$/;
const SANDBOX_ROUTE = /^[A-Z]+ \/sandbox\//;

let cached;

/** `[{ name, dir, role, routes, … }]` in table order, checked once (a broken table fails the packaging). */
function loadRouteTable() {
  if (!cached) {
    const { routes, ROLES } = tsx.require(ROUTES_MODULE, __filename);
    cached = Object.freeze(Object.entries(routes).map(([name, entry]) => Object.freeze({ name, ...entry })));
    checkRouteTable(cached, ROLES);
  }
  return cached;
}

/** The roles the table may name (lib/http/routes.ts ROLES); iam.cjs defines what each may do. */
function roles() {
  return tsx.require(ROUTES_MODULE, __filename).ROLES;
}

function checkRouteTable(entries, knownRoles) {
  const where = 'lib/http/routes.ts';
  const names = new Set();
  const routeKeys = new Set();
  for (const entry of entries) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(entry.name)) throw new Error(`${where}: invalid function name "${entry.name}"`);
    if (names.has(entry.name)) throw new Error(`${where}: duplicate function "${entry.name}"`);
    names.add(entry.name);
    if (!/^[a-z0-9-]+$/.test(entry.dir)) throw new Error(`${where}: invalid dir "${entry.dir}"`);
    if (!knownRoles.includes(entry.role)) throw new Error(`${where}: function "${entry.name}" has unknown role "${entry.role}"`);
    for (const route of entry.routes) {
      parseRoute(route);
      if (routeKeys.has(route)) throw new Error(`${where}: duplicate route "${route}"`);
      routeKeys.add(route);
    }
    if (entry.routes.length === 0 && !entry.triggers && !entry.catchAll) {
      throw new Error(`${where}: function "${entry.name}" has neither routes, triggers nor catchAll`);
    }
    isSandboxEntry(entry);
  }
  if (entries.filter((entry) => entry.catchAll).length !== 1) throw new Error(`${where}: exactly one function must be the catchAll ($default)`);
}

function parseRoute(route) {
  const match = ROUTE_KEY.exec(route);
  if (!match) throw new Error(`lib/http/routes.ts: invalid route "${route}" (expected "METHOD /path")`);
  return { method: match[1], path: match[2] };
}

/** True when every route of the entry is under /sandbox/; a function mixing both is refused. */
function isSandboxEntry(entry) {
  const sandboxRoutes = entry.routes.filter((route) => SANDBOX_ROUTE.test(route));
  if (sandboxRoutes.length > 0 && sandboxRoutes.length < entry.routes.length) {
    throw new Error(`lib/http/routes.ts: "${entry.name}" mixes /sandbox/ routes with others; a sandbox function has only /sandbox/ routes`);
  }
  return entry.routes.length > 0 && sandboxRoutes.length === entry.routes.length;
}

/** The entries deployed on a stage: without the sandbox, no /sandbox/ function at all. */
function deployedRouteTable(entries, { sandbox }) {
  return sandbox ? entries : entries.filter((entry) => !isSandboxEntry(entry));
}

/** `{ functionName: role }` of `entries`. */
function roleByFunction(entries) {
  return Object.fromEntries(entries.map((entry) => [entry.name, entry.role]));
}

/**
 * The roles that need the Idempotency-Key table: those with a function whose entry says
 * `idempotency: 'supported'` (its handler is built with the guard, lib/http/routes.ts).
 */
function idempotencyRoles(entries) {
  return [...new Set(entries.filter((entry) => entry.idempotency === 'supported').map((entry) => entry.role))];
}

module.exports = {
  loadRouteTable,
  roles,
  parseRoute,
  isSandboxEntry,
  deployedRouteTable,
  roleByFunction,
  idempotencyRoles,
};
