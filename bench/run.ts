/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so one benchmark's memory and JIT
 * state do not colour the next) and prints what each reports. Figures go into the README by hand.
 * `npm run bench -- NAME` runs only the benchmarks whose file name contains NAME; further arguments go to them
 * (`npm run bench -- reliability --kills 50`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const benchDirectory = path.dirname(new URL(import.meta.url).pathname);
const filter = process.argv[2];
const files = fs
  .readdirSync(benchDirectory)
  .filter((file) => file.endsWith('.bench.ts') && (filter === undefined || file.includes(filter)))
  .sort();

if (files.length === 0) {
  process.stderr.write('No benchmarks found.\n');
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDirectory, file), ...process.argv.slice(3)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
