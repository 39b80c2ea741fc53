import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The server's resource folders: a route surface with its service and repository. */
const SERVER_RESOURCES = [
  'assignment',
  'audit',
  'auth',
  'capabilities',
  'client-updates',
  'decisions',
  'documents',
  'entities',
  'notes',
  'reviews',
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'dist-sourcemaps',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      '*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      'no-console': 'error',
    },
  },
  {
    // Served as written before the bundle loads: a plain browser script without type information.
    files: ['public/**/*.js'],
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'script',
      globals: globals.browser,
    },
    rules: tseslint.configs.disableTypeChecked.rules,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The import arrows of docs/architecture.md: contract depends on nothing of ours, a console
    // feature on no other feature and not on app/, the database layer on no resource.
    files: ['contract/**/*.ts', 'src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['contract/**', 'src/**', 'server/**'],
      'boundaries/elements': [
        { type: 'contract', pattern: 'contract' },
        { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
        { type: 'app', pattern: 'src/app' },
        { type: 'console', pattern: 'src' },
        { type: 'db', pattern: 'server/db' },
        {
          type: 'resource',
          pattern: `server/{${SERVER_RESOURCES.join(',')}}`,
        },
        { type: 'server', pattern: 'server' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'contract' } },
              disallow: {
                to: {
                  element: { types: ['console', 'app', 'feature', 'server', 'db', 'resource'] },
                },
              },
            },
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { types: ['app'] } } },
            },
            {
              from: { element: { type: 'feature' } },
              disallow: {
                to: {
                  element: {
                    type: 'feature',
                    captured: { feature: '!{{ from.element.captured.feature }}' },
                  },
                },
              },
            },
            {
              from: { element: { type: 'db' } },
              disallow: { to: { element: { type: 'resource' } } },
            },
            {
              from: { element: { types: ['console', 'app', 'feature'] } },
              disallow: { to: { element: { types: ['server', 'db', 'resource'] } } },
            },
            {
              from: { element: { types: ['server', 'db', 'resource'] } },
              disallow: { to: { element: { types: ['console', 'app', 'feature'] } } },
            },
          ],
        },
      ],
    },
  },
  {
    // The database's own tests drive it through the resources' repositories and the admin CLI.
    files: ['server/db/**/*.test.ts'],
    rules: { 'boundaries/dependencies': 'off' },
  },
  {
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
