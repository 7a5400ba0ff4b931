import fs from 'node:fs';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypeScript from 'eslint-config-next/typescript';

/**
 * Import direction (DESIGN.md §4): lib, engine, db → features → app; cli may use all but app.
 * A feature does not import another feature; pages compose features.
 */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

const features = fs.existsSync('src/features') ? fs.readdirSync('src/features') : [];

const config = [
  { ignores: ['.next/**', 'node_modules/**', '.data/**', 'playwright-report/**', 'test-results/**', 'next-env.d.ts', 'src/db/migrations/**'] },
  ...nextCoreWebVitals,
  ...nextTypeScript,
  {
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  layer(['src/engine/**'], ['@/lib/*', '@/db/*', '@/features/*', '@/app/*', '@/cli/*', 'react', 'next', 'next/*', '**/../lib/*', '**/../db/*'], 'src/engine is pure: no I/O, no React, no Next.js, no database.'),
  layer(['src/lib/**'], ['@/features/*', '@/app/*', '@/cli/*', '**/features/**', '**/app/**'], 'src/lib sits below features and app.'),
  layer(['src/db/**'], ['@/features/*', '@/app/*', '@/cli/*', '@/lib/server/*'], 'src/db sits below features and app.'),
  ...features.map((feature) =>
    layer(
      [`src/features/${feature}/**`],
      ['@/app/*', '@/cli/*', '@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`],
      'A feature imports lib, engine and db, never the app or another feature; pages compose features.',
    ),
  ),
  layer(['src/cli/**'], ['@/app/*'], 'The command line does not import routes.'),
  // Playwright fixtures call a parameter named `use`, which is not React's hook.
  { files: ['tests/e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
];

export default config;
