import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIo } from './command-io';
import { run } from './whatsapp-export';

const shortChat = path.resolve(process.cwd(), '../shared/testdata/whatsapp-export/whatsapp-chat-parser/short-chat.txt');
const whatsr = path.resolve(process.cwd(), '../shared/testdata/whatsapp-export/WhatsR/englishandroidampm.txt');

describe('cli whatsapp-export', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'whatsapp-export-'));
  });
  afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

  it('prints the messages and participants as JSON, system messages with author null', async () => {
    const io = captureIo();
    expect(await run([shortChat, '--json'], io)).toBe(0);
    expect(io.err()).toBe('');
    const printed = JSON.parse(io.out()) as {
      messages: { timestamp: string; author: string | null; text: string }[];
      participants: string[];
    };
    expect(Object.keys(printed)).toEqual(['messages', 'participants']);
    expect(printed.messages).toHaveLength(5);
    expect(printed.messages[0]).toEqual({
      timestamp: '2017-03-06T00:45:00.000Z',
      author: null,
      text: 'Messages to this group are now secured with end-to-end encryption. Tap for more info.',
    });
    expect(printed.messages.at(-1)).toEqual({
      timestamp: '2017-04-09T01:50:00.000Z',
      author: '+410123456789',
      text: 'How are you?\n\nIs everything alright?',
    });
    expect(printed.participants).toEqual(['Sample User', 'TestBot', '+410123456789']);
  });

  it('reads times in --timezone and dates in --date-order', async () => {
    const io = captureIo();
    expect(await run([shortChat, '--json', '--timezone', 'America/New_York', '--date-order', 'mdy'], io)).toBe(0);
    const printed = JSON.parse(io.out()) as { messages: { timestamp: string }[] };
    // 06/03/2017 00:45 month first = 3 June, New York summer time (UTC−4).
    expect(printed.messages[0]!.timestamp).toBe('2017-06-03T04:45:00.000Z');
  });

  it('summarises messages per participant, media and system messages without --json', async () => {
    const io = captureIo();
    expect(await run([whatsr], io)).toBe(0);
    expect(io.out()).toMatch(/^50 messages from 2018-01-29T12:24:00.000Z to 2018-01-30T00:23:00.000Z/);
    expect(io.out()).toMatch(/Bob\s+19\n/);
    expect(io.out()).toContain("Media messages (placeholders, counted in the participants' totals): 2");
    expect(io.out()).toContain('System messages (no author): 8');
  });

  it.each([
    [['--json'], /expected one FILE/],
    [[shortChat, '--date-order', 'ydm'], /--date-order must be one of dmy, mdy, ymd/],
    [[shortChat, '--timezone', 'Mars/Olympus'], /unknown time zone "Mars\/Olympus"/],
    [[shortChat, '--colour'], /Unknown option/],
    [['/nonexistent/chat.txt'], /cannot read \/nonexistent\/chat.txt: no such file/],
  ])('exits 2 with a clear message for %j', async (argv, message) => {
    const io = captureIo();
    expect(await run(argv, io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.out()).toBe('');
  });

  it('exits 2 on a file with no message in it', async () => {
    const file = path.join(directory, 'notes.txt');
    fs.writeFileSync(file, 'just some notes\n');
    const io = captureIo();
    expect(await run([file, '--json'], io)).toBe(2);
    expect(io.err()).toContain('no WhatsApp message header found');
  });

  it('is registered in the CLI and prints the same JSON from a process', () => {
    const spawned = spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/cli/main.ts', 'whatsapp-export', shortChat, '--json'], {
      encoding: 'utf8',
    });
    expect(spawned.stderr).toBe('');
    expect(spawned.status).toBe(0);
    expect((JSON.parse(spawned.stdout) as { messages: unknown[] }).messages).toHaveLength(5);
  }, 30_000);
});
