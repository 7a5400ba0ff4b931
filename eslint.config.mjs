import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypeScript from 'eslint-config-next/typescript';

/**
 * Import direction (DESIGN.md §4): lib, engine, db → features → app; cli may use all but app.
 * `import/no-restricted-paths` resolves every import (relative or `@/`) to a file, so a boundary holds
 * whichever way the path is spelled. Exported as a function of the project root so the lint-boundary test
 * can apply the same rules to its fixture project (src/lib/lint-boundaries.test.ts).
 * @param {string} root absolute path of the project
 */
export function importBoundaryZones(root) {
  const featuresDir = path.join(root, 'src/features');
  const features = fs.existsSync(featuresDir)
    ? fs
        .readdirSync(featuresDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
    : [];
  // A feature's public surface: src/features/<f>/index.ts(x), when it has one.
  const publicIndex = (feature) => ['index.ts', 'index.tsx'].find((file) => fs.existsSync(path.join(featuresDir, feature, file)));
  const notApp = fs.existsSync(path.join(root, 'src'))
    ? fs
        .readdirSync(path.join(root, 'src'))
        .filter((entry) => entry !== 'app')
        .map((entry) => `src/${entry}`)
    : [];

  return [
    // The app zone covers every other folder, so the zones below need not repeat src/app.
    {
      target: [...notApp, 'bench', 'tests', 'scripts'],
      from: 'src/app',
      message: 'Nothing imports src/app: routes compose features, not the other way round.',
    },
    {
      target: 'src/engine',
      from: ['src/lib', 'src/db', 'src/features', 'src/cli'],
      message: 'src/engine is pure: no I/O, no React, no Next.js, no database.',
    },
    { target: 'src/lib', from: ['src/features', 'src/cli'], message: 'src/lib sits below features and app.' },
    { target: 'src/db', from: ['src/features', 'src/cli', 'src/lib/server'], message: 'src/db sits below features and app.' },
    { target: 'src/features', from: 'src/cli', message: 'A feature imports lib, engine and db, never the command line.' },
    ...features.map((feature) => ({
      target: `src/features/${feature}`,
      from: 'src/features',
      except: [
        `./${feature}`,
        ...features.filter((other) => other !== feature && publicIndex(other)).map((other) => `./${other}/${publicIndex(other)}`),
      ],
      message: "A feature does not import another feature's internals: only its public index.ts, if it has one.",
    })),
  ];
}

/** What src/engine may not import, whatever the path: Node built-ins, databases, React, Next.js. */
const enginePackages = ['pg', '@electric-sql/pglite', 'drizzle-orm', 'react', 'react-dom', 'next'];
const engineMessage = 'src/engine is pure: no I/O, no React, no Next.js, no database.';
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** @param {string} root absolute path of the project */
export function createConfig(root) {
  return [
    {
      ignores: [
        '.next/**',
        'node_modules/**',
        '.data/**',
        'playwright-report/**',
        'test-results/**',
        'next-env.d.ts',
        'src/db/migrations/**',
      ],
    },
    ...nextCoreWebVitals,
    ...nextTypeScript,
    {
      settings: { 'import/ignore': ['node_modules'] },
      rules: {
        'import/no-cycle': ['error', { ignoreExternal: true }],
        'import/no-restricted-paths': ['error', { basePath: root, zones: importBoundaryZones(root) }],
        '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      },
    },
    {
      files: ['src/engine/**'],
      // Tests and their helpers may read reference files from disk; the algorithms may not.
      ignores: ['src/engine/**/*.test.ts', 'src/engine/**/test-support/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: builtinModules.map((name) => ({ name, message: engineMessage })),
            patterns: [
              { regex: '^node:', message: engineMessage },
              { regex: `^(${enginePackages.map(escapeRegex).join('|')})(/.*)?$`, message: engineMessage },
            ],
          },
        ],
      },
    },
    {
      // zod is configured for the browser in one module (src/lib/zod.ts, decision 059); a schema built from
      // 'zod' directly in client code would probe for eval under our CSP. The pure engine keeps the package.
      files: ['src/**'],
      ignores: ['src/engine/**', 'src/lib/zod.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          { paths: [{ name: 'zod', allowTypeImports: true, message: "Import z from '@/lib/zod' (configured for the browser)." }] },
        ],
      },
    },
    // Playwright fixtures call a parameter named `use`, which is not React's hook.
    { files: ['tests/e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  ];
}

export default createConfig(import.meta.dirname);
