// @ts-check
/** ESLint for the whole tree: recommended JS + TypeScript rules everywhere, the React hooks rules in the client, Prettier owns layout. */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One `no-restricted-imports` entry: imports whose path matches `regex` are refused with `message`. */
const refuse = (regex, message) => ({ regex, message });
/** A relative import reaching a top-level folder of these names (however many `../` it takes). */
const upTo = (...dirs) => `^(\\.\\./)+(${dirs.join('|')})(/|$)`;

/**
 * The import boundaries (docs/server.md): the worker reaches only shared/, the client only shared/contracts,
 * common/ no feature, chat never realtime, and the fan-out neither chat nor realtime. By file glob; relative
 * paths and the #shared/* alias are both checked.
 */
const boundaries = [
  {
    files: ['workers/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [refuse(upTo('server', 'client'), 'The worker imports only shared/ (#shared/*), never server/ or client/.')] },
      ],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            refuse(upTo('server', 'workers'), 'The client imports nothing of server/ or workers/; shared types come from @contracts/*.'),
            refuse('^(\\.\\./)+shared/(?!contracts/)', 'The client imports only shared/contracts (as @contracts/*), no other part of shared/.'),
            refuse('^#shared/(?!contracts/)', 'The client imports only shared/contracts (as @contracts/*), no other part of shared/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [refuse(upTo('modules', 'realtime', 'fanout'), 'common/ sits below every feature: it imports no module, realtime or fan-out code.')] },
      ],
    },
  },
  {
    files: ['server/src/modules/chat/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            refuse(upTo('realtime'), 'The chat never imports realtime/: it publishes through the fan-out (server/src/fanout), which realtime delivers.'),
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/fanout/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [refuse(upTo('modules', 'realtime'), 'The fan-out sits below chat and realtime: it imports neither modules/ nor realtime/.')] },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '.data/', 'coverage/', 'test/browser/artifacts/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (a parameter kept for its position, a value destructured away).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}', 'client/jest/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    // The two rules of hooks. The plugin's other recommended rules are React Compiler diagnostics; the client
    // does not use the compiler (docs/client.md).
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['client/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Socket and page payloads in tests are untyped JSON; the helpers hand them back as `any` on purpose.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS configuration files.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...boundaries,
  prettier,
);
