// ESLint (npm run lint, part of npm test): typescript-eslint's recommended rules, React's rules of
// hooks with exhaustive effect dependencies as errors, and no warnings allowed (--max-warnings 0).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // src/model/fused/assembly/ is AssemblyScript (its decorators and types are asc's), compiled by npm run build:kernels.
  {
    ignores: [
      'bench/',
      'dist/',
      'dist-lib/',
      'node_modules/',
      'src/model/fused/assembly/',
      'test-results/',
      'test/sites/apps/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // useClientLayoutEffect is useLayoutEffect in the browser: its dependencies are checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useClientLayoutEffect$' }],
      // `{ episodes: _, ...figures }` drops a field by name: the rest is what is used.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Functions that fit on a screen, as Prettier lays them out (tests' describe blocks are lists, not functions to read).
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
);
