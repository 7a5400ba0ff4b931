import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { captureIo } from './command-io';
import { run } from './seed';

const [pglite] = testDatabaseBackends();

describe('cli seed', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
  });

  // The command closes the connection it opened; the test database is disposed afterwards instead.
  const dependencies = () => ({ openConnection: () => database!, closeConnection: async () => undefined });

  it('loads the dataset once and says so; a second run changes nothing', { timeout: 120_000 }, async () => {
    database = await pglite!.create();
    const first = captureIo();
    expect(await run(['--patients', '60', '--seed', '3'], first, dependencies())).toBe(0);
    expect(first.out()).toMatch(
      /^Demo dataset \(synthetic\) loaded in \d+\.\d s: 60 patients, [\d,]+ dispensings, [\d,]+ dose events, [\d,]+ messages; trial cohort A: 60 screened, 12 enrolled \(\d+ control, \d+ intervention\) and followed for 12 weeks\.\n$/,
    );
    expect(first.err()).toBe('');

    const second = captureIo();
    expect(await run([], second, dependencies())).toBe(0);
    expect(second.out()).toBe('Demo dataset: already loaded (60 synthetic patients); nothing changed.\n');
    const { rows } = (await database.database.execute(sql`select count(*)::int as patients from patients`)) as unknown as {
      rows: { patients: number }[];
    };
    expect(rows[0]?.patients).toBe(60);
  });

  it('prints help, and names the option that is wrong', async () => {
    const help = captureIo();
    expect(await run(['--help'], help, dependencies())).toBe(0);
    expect(help.out()).toContain('Usage: npm run --silent cli -- seed');
    for (const [argv, message] of [
      [['--patients', 'many'], '--patients must be a whole number (got "many")'],
      [['--patients', '0'], '--patients must be from 1 to 100000 (got 0)'],
      [['--seed', '-1'], '--seed'],
      [['--days', '3'], "Unknown option '--days'"],
    ] as const) {
      const io = captureIo();
      expect(await run([...argv], io, dependencies())).toBe(2);
      expect(io.err()).toContain(message);
      expect(io.out()).toBe('');
    }
  });
});
