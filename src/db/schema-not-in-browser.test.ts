import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema';

/**
 * The schema never reaches the browser (DESIGN.md §4): no client chunk of the production build may name a
 * table or column, nor carry Drizzle itself. Needs `npm run build`; `npm test` runs it after the build as
 * `npm run test:bundle`. Names are the snake_case ones (`auth_verifications`, `api_key_hash`): single words
 * such as `patients` or `status` are ordinary UI text, and a table cannot ship without Drizzle's markers.
 */
const root = path.resolve(import.meta.dirname, '../..');
const buildIdFile = path.join(root, '.next/BUILD_ID');
const chunksDirectory = path.join(root, '.next/static/chunks');

function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function schemaNames(): string[] {
  const names = new Set<string>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    names.add(getTableName(value));
    for (const column of Object.values(getTableColumns(value))) names.add(column.name);
  }
  return [...names].filter((name) => name.includes('_')).sort();
}

/** Why the test cannot judge the build in .next, or null when it can. */
function buildUnusable(): string | null {
  if (!fs.existsSync(buildIdFile) || !fs.existsSync(chunksDirectory))
    return 'no production build in .next: run `npm run build`, then `npm run test:bundle`';
  const builtAt = fs.statSync(buildIdFile).mtimeMs;
  const changed = filesUnder(path.join(root, 'src')).find((file) => fs.statSync(file).mtimeMs > builtAt);
  return changed
    ? `the build in .next is older than ${path.relative(root, changed)}: run \`npm run build\`, then \`npm run test:bundle\``
    : null;
}

describe('client chunks of the production build', () => {
  it('knows the schema names it looks for', () => {
    expect(schemaNames()).toEqual(expect.arrayContaining(['auth_verifications', 'api_key_hash', 'backup_codes', 'dose_events']));
  });

  it('name no table or column and carry no Drizzle', (context) => {
    const unusable = buildUnusable();
    if (unusable) {
      console.warn(`Skipped: ${unusable}.`);
      context.skip(unusable);
    }
    const patterns = schemaNames().map((name) => ({ name, pattern: new RegExp(`["'\`]${name}["'\`]`) }));
    const found: Record<string, string[]> = {};
    for (const file of filesUnder(chunksDirectory).filter((name) => name.endsWith('.js'))) {
      const text = fs.readFileSync(file, 'utf8');
      const names = patterns.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
      if (text.includes('Symbol.for("drizzle:')) names.unshift('(Drizzle ORM itself)');
      if (names.length > 0) found[path.relative(root, file)] = names;
    }
    expect(found).toEqual({});
  });
});
