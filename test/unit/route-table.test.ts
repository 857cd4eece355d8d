/**
 * The one route table (lib/http/routes.ts) and what is derived from it: every entry has its
 * handler, built from that very entry (access, session tokens, read-ahead, Idempotency-Key); the
 * serverless functions and events; the IAM roles that get the idempotency table; the fallback's
 * 404/405. (The OpenAPI operations: test/unit/openapi.test.ts; the packaged template:
 * test/deploy/cloudformation.test.ts.)
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticator } from '../../lib/composition/core.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { apiHandler, builtFromOf } from '../../lib/http/api-handler.js';
import { ROLES, type RouteTableEntry, routes, routeTable } from '../../lib/http/routes.js';
import { invoke } from '../support/invoke.js';

const require = createRequire(import.meta.url);
const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions/', import.meta.url));

type Statement = { Sid?: string; Resource: unknown };
type Role = { Properties: { Policies: { PolicyDocument: { Statement: Statement[] } }[] } };
type Entry = RouteTableEntry & { name: string };
const routeTableCjs = require('../../infra/serverless/route-table.cjs') as {
  loadRouteTable: () => Entry[];
  deployedRouteTable: (entries: Entry[], options: { sandbox: boolean }) => Entry[];
  idempotencyRoles: (entries: Entry[]) => string[];
};
const iam = require('../../infra/serverless/iam.cjs') as {
  ACCESS_GROUPS: string[];
  roleResources: (context: Record<string, unknown>) => Record<string, Role>;
  roleLogicalId: (role: string) => string;
  groupStatements: (role: string, keyResources: unknown[]) => Statement[];
};
const { buildFunctions } = require('../../infra/serverless/functions.cjs') as {
  buildFunctions: (entries: Entry[], environment: object, serviceDir: string) => Record<string, { handler: string; role: string; events: unknown[] }>;
};

const roles = (table: Entry[]) =>
  iam.roleResources({ service: 'click-to-pay', stage: 'test', payloadKeyIds: 'alias/click-to-pay-test-payload-current', routeTable: table });
const statements = (resources: Record<string, Role>, role: string) => resources[iam.roleLogicalId(role)]!.Properties.Policies[0]!.PolicyDocument.Statement;
const onIdempotencyTable = (resources: Record<string, Role>, role: string) =>
  statements(resources, role).filter((s) => JSON.stringify(s.Resource).includes('"IdempotencyTable"'));

describe('the route table', () => {
  it('is what the infrastructure reads (tsx loads the same module for serverless.yml)', () => {
    expect(JSON.parse(JSON.stringify(routeTableCjs.loadRouteTable()))).toEqual(JSON.parse(JSON.stringify(routeTable())));
  });

  it('has one entry per functions/ folder, and a handler for every entry', () => {
    const folders = readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(`${FUNCTIONS_DIR}${d.name}/handler.ts`))
      .map((d) => d.name)
      .sort();
    expect(
      routeTable()
        .map((entry) => entry.dir)
        .sort(),
    ).toEqual(folders);
  });

  it('names only roles the IAM code gives statements to', () => {
    expect(iam.ACCESS_GROUPS).toEqual([...ROLES]);
    for (const role of ROLES) expect(() => iam.groupStatements(role, ['arn:aws:kms:eu-west-1:123456789012:key/k']), role).not.toThrow();
  });
});

describe('handlers are built from their own entry', () => {
  const apiEntries = routeTable().filter((entry) => entry.access !== undefined);

  it.each(routeTable().map((entry) => [entry.name, entry] as const))('%s exports its handler', { timeout: 60_000 }, async (_name, entry) => {
    const { handler } = (await import(`../../functions/${entry.dir}/handler.ts`)) as { handler: unknown };
    expect(typeof handler).toBe('function');
    const built = builtFromOf(handler);
    if (entry.access === undefined) {
      expect(built, 'a page, stand-in or worker is not an apiHandler').toBeUndefined();
      return;
    }
    // The very table entry: its access requirement, session-token policy and read-ahead are the edge's.
    expect(built?.route).toBe(routes[entry.name]);
    expect(built?.idempotent, 'the Idempotency-Key guard is in the stack exactly when the entry opts in').toBe(entry.idempotency === 'supported');
  });

  it('checks a token on every route of the JSON API (/config/, /transactions/), and on no other', () => {
    const api = (entry: Entry) => entry.routes.some((route) => / \/(config|transactions)\//.test(route));
    expect(apiEntries.map((entry) => entry.name)).toEqual(
      routeTable()
        .filter(api)
        .map((entry) => entry.name),
    );
    expect(apiEntries.length).toBe(25);
  });

  it('cannot build an idempotent route without the guard, nor the guard on a route that does not opt in', () => {
    const run = async () => ({ body: {} });
    // @ts-expect-error — createOrder takes an Idempotency-Key: apiHandler's type refuses it
    expect(() => apiHandler(routes.createOrder, { authenticator }, run)).toThrow(/idempotentApiHandler/);
    // @ts-expect-error — getOrder does not opt in
    expect(() => idempotentApiHandler(routes.getOrder, { authenticator }, run)).toThrow(/apiHandler/);
  });
});

describe('serverless functions and events', () => {
  const table = routeTableCjs.loadRouteTable().filter((entry) => !entry.package); // package patterns need the built page
  const functions = buildFunctions(table, {}, '/nonexistent');

  it('gives each entry its handler, its role and one HTTP API event per route; the catch-all takes $default', () => {
    for (const entry of table) {
      const fn = functions[entry.name]!;
      expect(fn.handler, entry.name).toBe(`functions/${entry.dir}/handler.handler`);
      expect(fn.role, entry.name).toBe(iam.roleLogicalId(entry.role));
      const http = fn.events.filter((event) => typeof event === 'object' && event !== null && 'httpApi' in event);
      if (entry.catchAll) expect(http, entry.name).toEqual([{ httpApi: '*' }]);
      else expect(http, entry.name).toEqual(entry.routes.map((route) => ({ httpApi: { method: route.split(' ')[0], path: route.split(' ')[1] } })));
    }
    expect(functions.webhookDelivery!.events).toHaveLength(2); // schedule + stream
  });

  it('leaves out exactly the /sandbox/ functions on a stage without the sandbox', () => {
    const all = routeTableCjs.loadRouteTable();
    const without = routeTableCjs.deployedRouteTable(all, { sandbox: false }).map((entry) => entry.name);
    expect(all.map((entry) => entry.name).filter((name) => !without.includes(name))).toEqual(['sandboxAcs', 'sandboxSrc']);
  });
});

describe('IAM: the idempotency table', () => {
  it('goes to the role of a function that opts in, and only there', () => {
    const entry = (name: string, role: Entry['role'], idempotency?: 'supported'): Entry => ({
      name,
      dir: name,
      role,
      routes: [`POST /${name}`],
      access: { kind: 'platform' },
      ...(idempotency ? { idempotency } : {}),
    });
    const optedIn = roles([entry('a', 'configRead', 'supported'), entry('b', 'orders')]);
    expect(onIdempotencyTable(optedIn, 'configRead').map((s) => s.Sid)).toEqual(['Idempotency']);
    expect(onIdempotencyTable(optedIn, 'orders')).toEqual([]);
    // One function of the role opting in is enough; none, and the statement goes.
    expect(onIdempotencyTable(roles([entry('a', 'orders'), entry('b', 'orders', 'supported')]), 'orders')).toHaveLength(1);
    expect(onIdempotencyTable(roles([entry('a', 'configRead'), entry('b', 'orders')]), 'configRead')).toEqual([]);
  });

  it('follows the table’s flags on the real table', () => {
    const table = routeTableCjs.loadRouteTable();
    const resources = roles(table);
    const optingIn = new Set(table.filter((entry) => entry.idempotency === 'supported').map((entry) => entry.role));
    expect(new Set(routeTableCjs.idempotencyRoles(table))).toEqual(optingIn);
    for (const role of new Set(table.map((entry) => entry.role))) {
      expect(onIdempotencyTable(resources, role).length, role).toBe(optingIn.has(role) ? 1 : 0);
    }
  });
});

describe('the fallback answers from the table', () => {
  afterEach(() => vi.unstubAllEnvs());

  const fallback = async () => {
    vi.resetModules();
    vi.stubEnv('SANDBOX_ROUTES', 'deployed');
    return (await import('../../functions/fallback/handler.js')).handler;
  };

  it('405 with Allow = the table’s methods for every path of the table, 404 elsewhere', async () => {
    const handler = await fallback();
    const methodsByPath = new Map<string, Set<string>>();
    for (const route of routeTable().flatMap((entry) => entry.routes)) {
      const [method, path] = route.split(' ') as [string, string];
      const concrete = path.replace(/\{[^}]+\}/g, 'x1');
      methodsByPath.set(concrete, (methodsByPath.get(concrete) ?? new Set()).add(method));
    }
    expect(methodsByPath.size).toBeGreaterThan(30);
    for (const [path, methods] of methodsByPath) {
      const response = await invoke(handler, { method: 'DELETE', path });
      expect(response.status, path).toBe(405);
      expect(response.headers.Allow?.split(', ').sort(), path).toEqual([...methods].sort());
    }
    for (const path of ['/nothing', '/config', '/transactions/outlets/x1/orders/x1/extra', '/checkout/assets']) {
      expect((await invoke(handler, { method: 'GET', path })).status, path).toBe(404);
    }
  });
});
