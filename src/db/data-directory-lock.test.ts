import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirectoryLockedError, acquireDataDirectoryLock, lockFileName, releaseDataDirectoryLock } from './data-directory-lock';

const fixture = path.join(import.meta.dirname, 'data-directory-lock.fixture.ts');

/** A separate Node.js process opening the embedded database in `directory`, as `npm start` or the CLI would. */
function openInAnotherProcess(
  directory: string,
): ChildProcess & { output: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, directory], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return Object.assign(child, { output });
}

async function untilOpened(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('opened')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the first process exited (${code}) before opening the database`)));
  });
}

const lockOwnerPid = (directory: string) =>
  (JSON.parse(fs.readFileSync(path.join(directory, lockFileName), 'utf8')) as { pid: number }).pid;

describe('one embedded database, one process', () => {
  let directory: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-lock-'));
  });
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('refuses a second process, keeps the first one’s lock, and takes over a lock whose process was killed', async () => {
    const first = openInAnotherProcess(directory);
    children.push(first);
    await untilOpened(first);
    expect(lockOwnerPid(directory)).toBe(first.pid);

    const second = openInAnotherProcess(directory);
    children.push(second);
    const refused = await second.output;
    expect(refused.code).toBe(3);
    expect(refused.stdout).not.toContain('opened');
    expect(refused.stderr).toContain(`The data folder ${directory} is in use by another Medaptive process (pid ${first.pid})`);
    // The refused process exited without touching the first one's lock.
    expect(lockOwnerPid(directory)).toBe(first.pid);
    expect(() => acquireDataDirectoryLock(directory)).toThrow(DataDirectoryLockedError);
    expect(lockOwnerPid(directory)).toBe(first.pid);

    // A crash leaves its lock behind; the next process takes it over.
    first.kill('SIGKILL');
    await first.output;
    expect(lockOwnerPid(directory)).toBe(first.pid);
    const lock = acquireDataDirectoryLock(directory);
    expect(lockOwnerPid(directory)).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(directory, lockFileName))).toBe(false);
  }, 180_000);

  it('the owner closing removes its lock, and the folder opens again', async () => {
    const first = openInAnotherProcess(directory);
    children.push(first);
    await untilOpened(first);
    first.stdin?.end();
    expect((await first.output).code).toBe(0);
    expect(fs.existsSync(path.join(directory, lockFileName))).toBe(false);
    acquireDataDirectoryLock(directory).release();
  }, 180_000);

  it('never removes a lock it does not own', () => {
    const lock = acquireDataDirectoryLock(directory);
    expect(releaseDataDirectoryLock(lock.path, 'somebody-else')).toBe(false);
    expect(lockOwnerPid(directory)).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.path)).toBe(false);
  });
});
