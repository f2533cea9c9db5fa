// Lint for structure: no import cycles (type-only ones included), and imports flow one way (contract →
// engine core → effects → HTTP; contract → studio lib/components → features → app). Style is left to the
// compiler and review.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import noCycle from './eslint-rules/no-cycle.js';

const root = path.dirname(fileURLToPath(import.meta.url));

// The engine's layers, bottom to top: pixels (image) → vision finds → looks edit → the effect frame
// (pipeline) → effects compose → what serves them. A layer imports only from the layers below it.
const engineOrder = ['image', 'vision', 'looks', 'pipeline', 'effects'];
const engineTop = ['workers', 'http', 'routes', 'plugins', 'tasks', 'results'];

// Inside engine/vision, bottom to top: the networks (models) → faces (detect, mesh, head pose) → body pose,
// face parsing and matting → region masks → debug drawings of them all. Folders on one step import neither
// each other nor anything above. Analysis with one user lives beside its effect, not here.
const visionSteps = [['models'], ['faces'], ['pose', 'parsing', 'matting', 'attributes'], ['regions'], ['debug']];

const boundaries = [
  { target: './contract', from: ['./engine', './src', './scripts', './e2e'], message: 'the contract is pure data, imported by engine and studio, importing neither' },
  { target: './engine', from: ['./src', './scripts', './e2e'], message: 'the engine does not depend on the studio or the scripts' },
  { target: './src', from: ['./engine', './scripts', './proxy.config.ts'], message: 'the studio reaches the engine over HTTP only' },
  // Scripts reach the engine through engine/for-scripts.ts; the studio's launcher alone starts it from server.ts
  // and config.ts, so that `npm start` loads no more of the engine than the server does.
  { target: './scripts', from: './engine', except: ['./for-scripts.ts', './server.ts', './config.ts'], message: 'scripts reach the engine through engine/for-scripts.ts only: re-export what a script needs there' },
  { target: ['./scripts/!(dev)/**', './scripts/*.ts', './scripts/dev/!(studio-server).ts'], from: ['./engine/server.ts', './engine/config.ts'], message: 'only the studio\'s launcher (scripts/dev/studio-server.ts) starts the engine itself: other scripts take startTestEngine from engine/for-scripts.ts' },
  { target: './engine', from: './engine/for-scripts.ts', message: 'engine/for-scripts.ts is the scripts\' way in: engine code imports from the module that defines a name' },
];
// Effects share code through the layers below them, never with each other (registry.ts, beside the folders, maps them).
const effectFolders = readdirSync(path.join(root, 'engine/effects'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

const layers = [
  ...effectFolders.map((slug) => ({
    target: `./engine/effects/${slug}`, from: effectFolders.filter((s) => s !== slug).map((s) => `./engine/effects/${s}`),
    message: 'an effect does not import from another effect: move the shared code down into engine/vision, engine/looks or engine/pipeline',
  })),
  ...engineOrder.map((layer, i) => {
    const above = [...engineOrder.slice(i + 1), ...engineTop];
    return { target: `./engine/${layer}`, from: above.map((a) => `./engine/${a}`), message: `engine/${layer} sits below ${above.join(', ')}: move shared code down instead` };
  }),
  ...visionSteps.flatMap((step, i) => step.map((folder) => {
    const barred = [...step.filter((f) => f !== folder), ...visionSteps.slice(i + 1).flat()];
    return { target: `./engine/vision/${folder}`, from: barred.map((b) => `./engine/vision/${b}`), message: `engine/vision/${folder} imports only from the steps below it (models → faces → pose | parsing | matting | attributes → regions → debug), not from ${barred.join(', ')}: move shared code down instead` };
  })).filter((zone) => zone.from.length > 0),
  { target: ['./src/lib', './src/components'], from: ['./src/features', './src/app'], message: 'shared studio code sits below features and the app' },
  { target: './src/features', from: ['./src/app'], message: 'features sit below the app' },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', '**/*.mjs'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { 'import-x': importX, local: { rules: { 'no-cycle': noCycle } } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      // In place of import-x/no-cycle, which skips type-only imports and has no option to count them.
      'local/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...boundaries, ...layers] }],
    },
  },
  {
    // A test may put layers together (a vision unit run through the worker pool); the boundaries still hold.
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaries }] },
  },
);
