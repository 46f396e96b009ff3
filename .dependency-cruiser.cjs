/**
 * The layers of the house, lowest first: a module may import its own layer and the layers below
 * it, never one above. The order is total (each folder is a layer of its own), so a cycle between
 * two folders is an import upwards and fails too; the folder-level cycle rule below says so by
 * name. Every folder of lib/, components/, app/ and scripts/ is listed (a test checks it, and the
 * README's layer list is checked against this one: tests/unit/layers.test.ts).
 *
 * Why this order, in short: the ground floor (values, configuration, logging, the database and its
 * job queue, the service's client) knows no domain; the seal and QA sampling sit below feedback
 * and the list because every read path asks the seal; feedback below the executions list (the list
 * shows labels not yet delivered); cases above the list (a queue is a saved list filter); the case
 * report (evidence) above cases; sync above everything it writes in ingest (cases, rings, the
 * trends rollup); lib/workers puts a process's background work together; actions, components, app
 * and scripts on top.
 */
const LAYERS = [
  // The spec's value lists, shared by the client and the simulator.
  'lib/spec',
  'lib/utils',
  'lib/countries',
  'lib/format',
  'lib/csv',
  'lib/ip-allowlist',
  'lib/edge',
  'lib/env',
  'lib/telemetry',
  'lib/log',
  'lib/mail',
  // The service's client knows no database: its shared rate-limit store is given to it (lib/server/idv-client.ts).
  'lib/idv',
  'lib/db',
  'lib/http',
  'lib/jobs',
  'lib/server',
  'lib/request',
  'lib/audit',
  'lib/pii',
  'lib/settings',
  'lib/auth',
  'lib/webhooks',
  'lib/notifications',
  'lib/qa',
  'lib/feedback',
  'lib/executions',
  'lib/cases',
  'lib/evidence',
  'lib/trends',
  'lib/rings',
  'lib/sync',
  'lib/api',
  'lib/workers',
  'lib/actions',
  // The simulator is an oracle for the client: it imports nothing of lib/ but the spec's words (rule below).
  'lib/simulator',
  'components/ui',
  'components/time',
  'components/shortcuts',
  'components/data-table',
  'components/notifications',
  'components/shell',
  'components/account',
  'components/feedback',
  'components/trends',
  'components/cases',
  'components/qa',
  'components/executions',
  'components/sync',
  'components/admin',
  'components/audit',
  'components/webhooks',
  'components/rings',
  'app',
  'scripts',
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A layer's modules: the folder, or the file of that name (lib/env is a folder, lib/format.ts a file). */
const pathOf = (layer) => `^${esc(layer)}(/|\\.[cm]?[jt]sx?$)`;
const anyOf = (layers) => layers.map(pathOf).join('|');

module.exports = {
  forbidden: [
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `layer:${layer}`,
      severity: 'error',
      comment: `${layer} may import only the layers below it (.dependency-cruiser.cjs)`,
      from: { path: pathOf(layer) },
      to: { path: anyOf(LAYERS.slice(i + 1)) },
    })),
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'folders import each other in a cycle',
      scope: 'folder',
      from: { path: '^(lib|components|app|scripts)/' },
      to: { circular: true },
    },
    {
      name: 'simulator-stands-alone',
      severity: 'error',
      comment:
        "the simulator is an oracle for the client: sharing code would let a bug agree with itself (the spec's value lists in lib/spec are words, not behaviour)",
      from: { path: '^lib/simulator/' },
      to: { path: '^lib/(?!simulator/|spec/)' },
    },
    {
      name: 'components-see-no-database',
      severity: 'error',
      comment:
        'components see data through the pages and lib/actions, never the database (the value lists are browser-safe)',
      from: { path: '^components/' },
      to: { path: '^lib/db/', pathNot: '^lib/db/((case|qa)-states|notification-kinds)\\.ts$' },
    },
    {
      name: 'no-tests-in-product',
      severity: 'error',
      comment: 'what the product needs lives in lib/ or scripts/, never in tests/',
      from: { path: '^(lib|components|app|scripts)/' },
      to: { path: '^tests/' },
    },
    {
      name: 'in-a-layer',
      severity: 'error',
      comment: 'every folder of lib/, components/, app/ and scripts/ is a layer of .dependency-cruiser.cjs',
      from: { path: '^(lib|components|app|scripts)/', pathNot: anyOf(LAYERS) },
      to: {},
    },
  ],
  options: {
    // tests/ is not cruised, but an import of it is seen (and refused by no-tests-in-product).
    doNotFollow: { path: ['node_modules', '^tests/'] },
    exclude: { path: '^(node_modules|\\.next|\\.data|drizzle)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
