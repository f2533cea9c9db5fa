// Lint for structure: no import cycles, and imports flow one way (contract → engine core → effects → HTTP;
// contract → studio lib/components → features → app). Style is left to the compiler and review.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const engineLayers = {
  image: ['vision', 'effects', 'pipeline', 'workers', 'http', 'routes', 'plugins', 'tasks', 'results'],
  vision: ['effects', 'pipeline', 'workers', 'http', 'routes', 'plugins', 'tasks', 'results'],
  pipeline: ['effects', 'workers', 'http', 'routes', 'plugins', 'tasks', 'results'],
  effects: ['workers', 'http', 'routes', 'plugins', 'tasks', 'results'],
};

const boundaries = [
  { target: './contract', from: ['./engine', './src', './scripts', './e2e'], message: 'the contract is pure data, imported by engine and studio, importing neither' },
  { target: './engine', from: ['./src', './scripts', './e2e'], message: 'the engine does not depend on the studio or the scripts' },
  { target: './src', from: ['./engine', './scripts', './proxy.config.ts'], message: 'the studio reaches the engine over HTTP only' },
];
const layers = [
  ...Object.entries(engineLayers).map(([layer, above]) => ({
    target: `./engine/${layer}`,
    from: above.map((a) => `./engine/${a}`),
    message: `engine/${layer} sits below ${above.join(', ')}: move shared code down instead`,
  })),
  { target: ['./src/lib', './src/components'], from: ['./src/features', './src/app'], message: 'shared studio code sits below features and the app' },
  { target: './src/features', from: ['./src/app'], message: 'features sit below the app' },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', '**/*.mjs'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // Without these, imported .ts files are not parsed and no cycle through them is seen.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries, ...layers] }],
    },
  },
  {
    // A test may put layers together (a vision unit run through the worker pool); the boundaries still hold.
    files: ['**/*.test.{ts,tsx}', '**/*.test-effect.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaries }] },
  },
);
