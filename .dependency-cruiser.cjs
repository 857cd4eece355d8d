/**
 * The walls of the house (README "Layers"), checked on every `npm test`
 * (test/architecture/layers.test.ts) and by `npx depcruise --config .dependency-cruiser.cjs lib functions`.
 *
 * - lib/core: domain, use cases and ports. Imports nothing outward: no adapter, no edge, no
 *   composition, no AWS SDK, no middy, no Powertools.
 * - lib/adapters: implementations of core ports. May import core; never the edge or composition.
 * - lib/http: the middy edge. May import core; never an adapter or the composition.
 * - lib/composition: wiring. The only importer of lib/adapters (besides tests and tools).
 * - functions/: thin handlers. Import the edge, the composition and core; never an adapter.
 * - No import circles anywhere.
 */
const OUTWARD_PACKAGES = '^(@aws-sdk|@aws-lambda-powertools|@middy|aws-lambda)(/|$)';

module.exports = {
  forbidden: [
    {
      name: 'core-imports-outward',
      comment: 'lib/core holds the domain, use cases and ports: it imports no adapter, edge or composition module.',
      severity: 'error',
      from: { path: '^lib/core/' },
      to: { path: '^(lib/(adapters|http|composition)|functions|infra|test|bench|web)/' },
    },
    {
      name: 'core-imports-infrastructure-packages',
      comment: 'lib/core imports no AWS SDK, Lambda types, middy or Powertools: those belong to adapters and the edge.',
      severity: 'error',
      from: { path: '^lib/core/' },
      to: { path: OUTWARD_PACKAGES },
    },
    {
      name: 'adapters-import-edge-or-composition',
      comment:
        "An adapter implements a core port; it never reaches the HTTP edge or the wiring. The sandbox is the one exception, and only for the edge: its ACS pages and SRC API stand in for outside systems that this deployment serves, with the edge's body limits, request context and deadline.",
      severity: 'error',
      from: { path: '^lib/adapters/', pathNot: '^lib/adapters/sandbox/(src/http|acs-http/)' },
      to: { path: '^(lib/(http|composition)|functions|infra|test|bench|web)/' },
    },
    {
      name: 'adapters-import-composition',
      comment: 'Not even the sandbox reaches the wiring.',
      severity: 'error',
      from: { path: '^lib/adapters/sandbox/' },
      to: { path: '^(lib/composition|functions|infra|test|bench|web)/' },
    },
    {
      name: 'edge-imports-adapters-or-composition',
      comment: 'The HTTP edge maps core results to HTTP; it is handed its collaborators, it does not build them.',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: '^(lib/(adapters|composition)|functions|infra|test|bench|web)/' },
    },
    {
      name: 'only-composition-imports-adapters',
      comment: 'Adapters are chosen in one place: lib/composition (tests and tools aside).',
      severity: 'error',
      from: { path: '^(lib|functions)/', pathNot: '^lib/(composition|adapters)/' },
      to: { path: '^lib/adapters/' },
    },
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and hides which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^test/fixtures/openapi-client/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
