import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * One embedded database, one process: PGlite keeps the whole database in this process's memory and writes
 * it back, so a second process on the same folder would silently lose writes the first acknowledged. The
 * lock is a file created exclusively (O_EXCL) holding the owner's pid and a random token; a lock whose
 * process is gone (a crash, SIGKILL) is taken over, and a lock is removed only by the process whose token
 * it holds.
 */
export const lockFileName = 'medaptive.lock';

export class DataDirectoryLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly ownerPid: number | null,
  ) {
    super(
      `The data folder ${directory} is in use by another Medaptive process${ownerPid === null ? '' : ` (pid ${ownerPid})`}. ` +
        'Stop that process first, or set DATA_DIR to another folder (one embedded database is served by one process; ' +
        'for several instances use PostgreSQL with DATABASE_URL).',
    );
    this.name = 'DataDirectoryLockedError';
  }
}

type LockContent = { pid: number; token: string; startedAt: string };

export type DataDirectoryLock = { path: string; token: string; release: () => void };

function readLock(lockPath: string): { raw: string; content: LockContent | null } | null {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockContent>;
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string'
      ? { raw, content: parsed as LockContent }
      : { raw, content: null };
  } catch {
    return { raw, content: null };
  }
}

/** Whether `pid` is a live process that may be a Medaptive server (a Node.js process). */
function isLiveOwner(pid: number): boolean {
  if (pid === process.pid) return false; // our pid, not our token: left by an earlier run whose pid we reuse
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    // After a restart the pid may belong to something else entirely (containers reuse small pids).
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc (macOS): trust the signal check
  }
}

const lockWriteGraceMilliseconds = 5_000;

export function acquireDataDirectoryLock(directory: string): DataDirectoryLock {
  fs.mkdirSync(directory, { recursive: true });
  const lockPath = path.join(directory, lockFileName);
  const content: LockContent = { pid: process.pid, token: randomUUID(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      const descriptor = fs.openSync(lockPath, 'wx', 0o600);
      try {
        fs.writeSync(descriptor, JSON.stringify(content));
      } finally {
        fs.closeSync(descriptor);
      }
      return { path: lockPath, token: content.token, release: () => releaseDataDirectoryLock(lockPath, content.token) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const existing = readLock(lockPath);
    if (existing === null) continue; // released meanwhile: try again
    if (existing.content === null) {
      // Unreadable: perhaps another process is writing it this instant; an old one is debris.
      const ageMilliseconds = Date.now() - fs.statSync(lockPath).mtimeMs;
      if (ageMilliseconds < lockWriteGraceMilliseconds) throw new DataDirectoryLockedError(directory, null);
    } else if (isLiveOwner(existing.content.pid)) {
      throw new DataDirectoryLockedError(directory, existing.content.pid);
    }
    // Stale: move it aside atomically, then make sure what we moved is the stale lock and not a fresh lock
    // another starter created in between (if it is, put it back: it is theirs).
    const aside = `${lockPath}.stale-${content.token}`;
    try {
      fs.renameSync(lockPath, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = fs.readFileSync(aside, 'utf8');
    if (moved !== existing.raw) {
      try {
        fs.linkSync(aside, lockPath);
      } catch {
        // Someone created another lock meanwhile; theirs stands.
      }
      fs.rmSync(aside, { force: true });
      continue;
    }
    fs.rmSync(aside, { force: true });
  }
  const holder = readLock(lockPath);
  throw new DataDirectoryLockedError(directory, holder?.content?.pid ?? null);
}

/** Removes the lock only if it still holds our token: a lock we do not own is never removed. */
export function releaseDataDirectoryLock(lockPath: string, token: string): boolean {
  const existing = readLock(lockPath);
  if (existing?.content?.token !== token) return false;
  fs.rmSync(lockPath, { force: true });
  return true;
}
