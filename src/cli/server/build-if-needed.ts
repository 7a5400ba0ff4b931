import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const buildInputs = ['src', 'public', 'next.config.ts', 'postcss.config.mjs', 'tsconfig.json', 'package-lock.json'];

function newestModification(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) {
    if (child.endsWith('.test.ts') || child.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestModification(path.join(entry, child)));
  }
  return newest;
}

/** Whether the production build is missing or older than any of its inputs. */
export function needsBuild(projectDirectory: string): boolean {
  const buildId = path.join(projectDirectory, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return buildInputs.some((input) => newestModification(path.join(projectDirectory, input)) > builtAt);
}

export function buildIfNeeded(projectDirectory: string, log: (line: string) => void): void {
  if (!needsBuild(projectDirectory)) return;
  log('Building the application (first start, or sources changed) …');
  const nextBin = path.join(projectDirectory, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: projectDirectory,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    throw new Error(`The build failed (exit code ${result.status ?? 'none'}); see the output above.`);
  }
}
