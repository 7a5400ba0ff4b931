import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of DESIGN.md §4 are lint rules that fail, not conventions: each snippet is linted as
 * if it were a file at `file`, with the project's own eslint.config.mjs. `import/no-unresolved` is added so
 * that an allowed import that does not fire is known to have resolved (no-restricted-paths skips what it
 * cannot resolve, which would make "allowed" vacuous).
 */
const root = path.resolve(import.meta.dirname, '../..');
const configFile = path.join(root, 'eslint.config.mjs');
const fixtureRoot = path.join(root, 'tests/lint-fixture');

// no-cycle cannot follow a snippet that is not on disk (it crashes); cycles are not what this test is about.
const testRules: Linter.RulesRecord = { 'import/no-unresolved': 'error', 'import/no-cycle': 'off' };

const zone = {
  feature: "A feature does not import another feature's internals",
  app: 'Nothing imports src/app',
  engine: 'src/engine is pure',
  lib: 'src/lib sits below features and app',
  db: 'src/db sits below features and app',
  featureDown: 'A feature imports lib, engine and db, never the command line',
};

type Case = { file: string; code: string; fires?: { rule: string; message: string } };

const paths = (message: string) => ({ rule: 'import/no-restricted-paths', message });
const engineImport = { rule: 'no-restricted-imports', message: zone.engine };

const cases: Case[] = [
  // A feature reaching into another feature's internals, by either spelling.
  {
    file: 'src/features/contact/components/x.tsx',
    code: "import { describeSignInError } from '../../identity/sign-in-errors';",
    fires: paths(zone.feature),
  },
  {
    file: 'src/features/contact/components/x.tsx',
    code: "import { describeSignInError } from '@/features/identity/sign-in-errors';",
    fires: paths(zone.feature),
  },
  {
    file: 'src/features/contact/server/x.ts',
    code: "import type { ProfileDocument } from '../../identity/schemas';",
    fires: paths(zone.feature),
  },
  { file: 'src/features/contact/components/x.tsx', code: "import { contactFieldLabels } from '../schemas';" },
  { file: 'src/features/contact/server/x.ts', code: "import { parseInput } from '@/lib/parse-input';" },
  { file: 'src/features/contact/server/x.ts', code: "import { contactMessages } from '../../../db/schema';" },
  // Nobody imports the app.
  { file: 'src/features/home/x.ts', code: "import Page from '@/app/page';", fires: paths(zone.app) },
  { file: 'src/lib/x.ts', code: "import Page from '../app/page';", fires: paths(zone.app) },
  { file: 'src/cli/commands/x.ts', code: "import Page from '../../app/page';", fires: paths(zone.app) },
  { file: 'src/db/x.ts', code: "import Page from '../app/page';", fires: paths(zone.app) },
  { file: 'src/app/x/page.tsx', code: "import Page from '../page';" },
  { file: 'src/app/x/page.tsx', code: "import { ContactModal } from '@/features/contact/components/contact-modal';" },
  // Features do not import the command line; lib and db sit below features.
  { file: 'src/features/home/x.ts', code: "import '../../cli/main';", fires: paths(zone.featureDown) },
  { file: 'src/lib/x.ts', code: "import { contactFieldLabels } from '../features/contact/schemas';", fires: paths(zone.lib) },
  { file: 'src/lib/server/x.ts', code: "import { contactFieldLabels } from '@/features/contact/schemas';", fires: paths(zone.lib) },
  { file: 'src/db/x.ts', code: "import { contactFieldLabels } from '../features/contact/schemas';", fires: paths(zone.db) },
  { file: 'src/db/x.ts', code: "import { enqueueJob } from '../lib/server/jobs';", fires: paths(zone.db) },
  { file: 'src/cli/commands/x.ts', code: "import { seedDemoDataset } from '@/features/demo-data/server/seed-demo-dataset';" },
  // The engine imports nothing of the application, by any path...
  { file: 'src/engine/adherence/x.ts', code: "import { AppError } from '../../lib/errors';", fires: paths(zone.engine) },
  { file: 'src/engine/adherence/x.ts', code: "import { AppError } from '@/lib/errors';", fires: paths(zone.engine) },
  { file: 'src/engine/adherence/x.ts', code: "import { patients } from '../../db/schema';", fires: paths(zone.engine) },
  {
    file: 'src/engine/adherence/x.ts',
    code: "import { contactFieldLabels } from '../../features/contact/schemas';",
    fires: paths(zone.engine),
  },
  { file: 'src/engine/adherence/x.ts', code: "import { seedCommand } from '../../cli/commands/seed';", fires: paths(zone.engine) },
  // ...and no Node built-in, database, React or Next.js.
  ...[
    'node:fs',
    'node:path',
    'fs',
    'fs/promises',
    'path',
    'crypto',
    'child_process',
    'pg',
    '@electric-sql/pglite',
    'drizzle-orm',
    'drizzle-orm/pg-core',
    'react',
    'react-dom',
    'react-dom/client',
    'next',
    'next/server',
  ].map((specifier): Case => ({ file: 'src/engine/adherence/x.ts', code: `import '${specifier}';`, fires: engineImport })),
  { file: 'src/engine/adherence/x.ts', code: "import { proportionOfDaysCovered } from './pdc';" },
  { file: 'src/engine/adherence/x.ts', code: "import { z } from 'zod';" },
  // Engine tests may read reference files.
  { file: 'src/engine/adherence/x.test.ts', code: "import fs from 'node:fs';" },
];

function boundaryMessages(results: ESLint.LintResult[]) {
  return results
    .flatMap((result) => result.messages)
    .filter((m) => ['import/no-restricted-paths', 'no-restricted-imports', 'import/no-unresolved'].includes(m.ruleId ?? ''));
}

describe('import boundaries (eslint.config.mjs)', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root, overrideConfigFile: configFile, overrideConfig: { rules: testRules } });
  });

  it.each(cases)(
    '$file: $code',
    async ({ file, code, fires }) => {
      const messages = boundaryMessages(await eslint.lintText(code, { filePath: path.join(root, file) }));
      if (fires) {
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ ruleId: fires.rule, message: expect.stringContaining(fires.message) });
      } else {
        expect(messages).toEqual([]);
      }
    },
    60_000,
  );
});

describe("a feature's public index.ts (fixture project tests/lint-fixture)", () => {
  let eslint: ESLint;
  beforeAll(async () => {
    const { createConfig } = (await import(pathToFileURL(configFile).href)) as { createConfig: (root: string) => Linter.Config[] };
    eslint = new ESLint({
      cwd: fixtureRoot,
      overrideConfigFile: true,
      overrideConfig: [...createConfig(fixtureRoot), { rules: testRules }],
    });
  });

  const fixtureCases: Case[] = [
    // alpha has an index.ts: that, and only that, is open to other features.
    { file: 'src/features/gamma/x.ts', code: "import { alphaValue } from '../alpha';" },
    { file: 'src/features/gamma/x.ts', code: "import { alphaValue } from '../alpha/index';" },
    { file: 'src/features/gamma/x.ts', code: "import { alphaValue } from '../alpha/internal';", fires: paths(zone.feature) },
    // beta has none: nothing of it is open.
    { file: 'src/features/gamma/x.ts', code: "import { betaValue } from '../beta/internal';", fires: paths(zone.feature) },
    { file: 'src/features/gamma/x.ts', code: "import { gammaValue } from './gamma';" },
  ];

  it.each(fixtureCases)(
    '$file: $code',
    async ({ file, code, fires }) => {
      const messages = boundaryMessages(await eslint.lintText(code, { filePath: path.join(fixtureRoot, file) }));
      if (fires) {
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ ruleId: fires.rule, message: expect.stringContaining(fires.message) });
      } else {
        expect(messages).toEqual([]);
      }
    },
    60_000,
  );
});
