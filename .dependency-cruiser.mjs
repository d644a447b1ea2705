// The layers of src/, enforced (npm run lint:deps, part of npm run lint): each folder imports
// only from the floors below it, nothing imports in a circle, and the compute floors import no
// UI. docs/architecture.md ("The layers") says why each floor sits where it does.
//
//   node            ─  Node's side (fs, the command line): the scripts and tests use it, src/ never does
//   ui ─────────────┐  the page: React, d3; may read any floor below but the worker's
//   client          │  the main thread's side of the worker
//   worker          │  the worker: its session, the backend race, calibration, warm-up
//   protocol        │  what crosses the thread boundary
//   pipeline        │  a run's stages end to end, and the reader's settings table
//   agent           │  pre-training and fine-tuning
//   rl              │  GRPO
//   model, env      │  the network; the tool world (env may read model/vocab.ts)
//   config.ts       │  one typed config (reads env's and model's leaf types only)
//   lib             ┘  the seeded PRNG
const FLOORS = ['lib', 'config', 'env|model', 'rl', 'agent', 'pipeline', 'protocol', 'worker', 'client', 'ui'];
const path = (floor) => (floor === 'config' ? '^src/config\\.ts$' : `^src/(${floor.split('|').join('|')})/`);

// A floor may not import any floor above it. client and worker talk only through protocol, and
// ui starts the worker by URL, never by import.
// config.ts reads the types of the knobs it configures from the modules that own them (the graders,
// the calculators, the episodes' kinds, the vocabulary; none imports config): those imports go one
// floor up by design and are named here.
const CONFIG_READS = '^src/(env/(grader|calculator|episode)|model/vocab)\\.ts$';
const upward = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `no-up-from-${floor.replace('|', '-')}`,
  comment: `${floor} sits below ${FLOORS.slice(i + 1).join(', ')}: it imports none of them`,
  severity: 'error',
  from: { path: path(floor) },
  to: { path: FLOORS.slice(i + 1).map(path), ...(floor === 'config' && { pathNot: CONFIG_READS }) },
}));

export default {
  forbidden: [
    ...upward,
    {
      name: 'no-node-in-the-browser',
      comment: 'src/node/ reads files and the command line: only scripts and tests import it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/node/' },
      to: { path: '^src/node/' },
    },
    {
      name: 'no-worker-from-page',
      comment: 'the page reaches the worker through protocol/ messages only',
      severity: 'error',
      from: { path: '^src/(ui|client)/' },
      to: { path: '^src/worker/' },
    },
    {
      name: 'no-env-model-cross',
      comment: 'env/ reads model/vocab.ts (the characters) and nothing else of model/; model/ reads nothing of env/',
      severity: 'error',
      from: { path: '^src/(env|model)/' },
      to: { path: '^src/(env|model)/', pathNot: ['^src/model/vocab\\.ts$', '$1'] },
    },
    {
      name: 'no-ui-in-compute',
      comment: 'the compute floors run in the worker, in Node scripts and in tests: no React, no d3',
      severity: 'error',
      from: { path: '^src/(lib|env|model|rl|agent|pipeline)/|^src/config\\.ts$' },
      to: { path: 'node_modules/(react|react-dom|d3)' },
    },
    {
      name: 'no-circular',
      comment: 'a circle of imports makes two modules one; give the shared piece a home below both',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-src-from-scripts-or-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/model/fused/assembly/' },
  },
};
