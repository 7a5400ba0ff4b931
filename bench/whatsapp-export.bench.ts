/**
 * Parses a generated 50 MB WhatsApp export (issue 16: under 5 s): the four WhatsR variants' message lines
 * replayed with shifted dates, alternating Android 24-hour and iOS 12-hour headers with U+202F before AM/PM,
 * a multi-line message every 20, read in a time zone (Europe/Berlin) so the zone conversion is measured too.
 * `npm run bench -- whatsapp-export [--megabytes N]`.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseWhatsappExport } from '@/engine/chat-export/parse-whatsapp-export';

const { values } = parseArgs({ args: process.argv.slice(2), options: { megabytes: { type: 'string', default: '50' } } });
const targetBytes = Number(values.megabytes) * 1024 * 1024;

const authors = ['Alice', 'Bob', 'Carol', 'Dave', '+44 7700 900123'];
const texts = [
  'Did you take your evening dose?',
  'Yes, just now 👍',
  '<Media omitted>',
  'I missed it this morning, will take it with lunch',
  'Reminder: refill due on Friday. Reply STOP to opt out.',
  'https://example.org/leaflet',
];
const parts: string[] = [];
let bytes = 0;
let lines = 0;
const start = Date.UTC(2020, 0, 1);
for (let index = 0; bytes < targetBytes; index += 1) {
  const at = new Date(start + index * 37_000);
  const [year, month, day] = [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate()];
  const [hour, minute, second] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()];
  const author = authors[index % authors.length]!;
  const text = index % 20 === 0 ? `${texts[index % texts.length]}\nsecond line\n\nfourth line` : texts[index % texts.length]!;
  const pad = (value: number) => String(value).padStart(2, '0');
  const line =
    index % 2 === 0
      ? `${day}/${month}/${String(year).slice(2)}, ${pad(hour)}:${pad(minute)} - ${author}: ${text}\n`
      : `[${day}/${month}/${String(year).slice(2)}, ${hour % 12 === 0 ? 12 : hour % 12}:${pad(minute)}:${pad(second)}\u202f${hour < 12 ? 'AM' : 'PM'}] ${author}: ${text}\n`;
  parts.push(line);
  bytes += Buffer.byteLength(line);
  lines += 1;
}
const text = `\uFEFF${parts.join('')}`;

const runs: number[] = [];
let messages = 0;
for (let run = 0; run < 3; run += 1) {
  const started = performance.now();
  const parsed = parseWhatsappExport(text, { timeZone: 'Europe/Berlin' });
  runs.push((performance.now() - started) / 1000);
  messages = parsed.messages.length;
  if (parsed.problems !== undefined || messages !== lines) throw new Error(`parsed ${messages} of ${lines} messages`);
}
const best = Math.min(...runs);
console.log(
  `whatsapp-export: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${messages.toLocaleString('en-GB')} messages: ` +
    `${runs.map((seconds) => `${seconds.toFixed(2)} s`).join(', ')} (best ${best.toFixed(2)} s; target < 5 s) ${best < 5 ? 'OK' : 'TOO SLOW'}`,
);
if (best >= 5) process.exitCode = 1;
