// One lint configuration for the three workspaces: typed rules from typescript-eslint's strict set,
// the rules of hooks for the client. `npm run lint` runs it with zero warnings allowed.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'server/migrations/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Numbers read naturally in messages; `() => void call()` shorthands are the idiom for handlers.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // A leading underscore marks what is deliberately unused (a rest sibling dropped from an object).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // The repo stands alone: a comment says why in its own words or points at docs/*.md, never at
      // a section of a document outside it (docs/architecture.md#comments-and-docs).
      'no-warning-comments': ['error', { terms: ['SPEC §', 'CONTRACT §', '§', '../shared'], location: 'anywhere' }],
    },
  },
  {
    // Tests, journeys and benchmarks read JSON answers as `any` and index rows they have just made:
    // the assertion after the access is what checks the shape.
    files: ['**/*.test.{ts,tsx}', 'server/test/**', 'server/bench/**', 'client/e2e/**', 'client/src/test-utils/**', 'deploy/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);
