import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { needsBuild } from './build-if-needed';

const projects: string[] = [];

afterEach(() => {
  for (const directory of projects.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

function project(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'medaptive-build-'));
  projects.push(directory);
  fs.mkdirSync(path.join(directory, 'src', 'app'), { recursive: true });
  fs.writeFileSync(path.join(directory, 'src', 'app', 'page.tsx'), 'export default 1;');
  return directory;
}

function touch(file: string, secondsFromNow: number): void {
  const when = new Date(Date.now() + secondsFromNow * 1000);
  fs.utimesSync(file, when, when);
}

describe('needsBuild', () => {
  it('builds when there is no build', () => {
    expect(needsBuild(project())).toBe(true);
  });

  it('does not rebuild an up-to-date build, but does after a source changes', () => {
    const directory = project();
    fs.mkdirSync(path.join(directory, '.next'));
    fs.writeFileSync(path.join(directory, '.next', 'BUILD_ID'), 'x');
    touch(path.join(directory, 'src', 'app', 'page.tsx'), -60);
    touch(path.join(directory, 'src', 'app'), -60);
    touch(path.join(directory, 'src'), -60);
    expect(needsBuild(directory)).toBe(false);
    touch(path.join(directory, 'src', 'app', 'page.tsx'), 60);
    expect(needsBuild(directory)).toBe(true);
  });

  it('ignores changes to test files', () => {
    const directory = project();
    fs.mkdirSync(path.join(directory, '.next'));
    fs.writeFileSync(path.join(directory, '.next', 'BUILD_ID'), 'x');
    for (const entry of ['src/app/page.tsx', 'src/app', 'src']) touch(path.join(directory, entry), -60);
    const testFile = path.join(directory, 'src', 'app', 'page.test.ts');
    fs.writeFileSync(testFile, '');
    touch(testFile, 60);
    touch(path.join(directory, 'src', 'app'), -60);
    expect(needsBuild(directory)).toBe(false);
  });
});
