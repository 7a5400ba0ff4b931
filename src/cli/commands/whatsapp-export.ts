/**
 * `npm run --silent cli -- whatsapp-export FILE --json [--timezone ZONE] [--date-order dmy|mdy|ymd]` (issue 16):
 * parses a WhatsApp "Export chat" text file with the engine parser the upload page uses. `--json` prints
 * `{"messages":[{"timestamp","author","text"}…],"participants":[…]}` (system messages with author null);
 * without it, a summary. Bad arguments or an unreadable file: one line on stderr, exit 2.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { type DateOrder, parseWhatsappExport, type ParsedChatExport } from '@/engine/chat-export/parse-whatsapp-export';
import { type CommandIo, processIo } from './command-io';

const usage = `Usage: npm run --silent cli -- whatsapp-export FILE [--json] [--timezone ZONE] [--date-order dmy|mdy|ymd]

Parse a WhatsApp "Export chat" text file (Android or iOS, 12- or 24-hour clock).

Options:
  --json                 print {"messages":[{"timestamp","author","text"}…],"participants":[…]}
                         (timestamps ISO 8601 UTC; system messages have author null)
  --timezone ZONE        IANA zone the phone was in (the export's times are its wall clock); default UTC
  --date-order ORDER     dmy, mdy or ymd; default: inferred from the whole file (a day above 12)
  --help                 show this help
`;

const dateOrders: readonly DateOrder[] = ['dmy', 'mdy', 'ymd'];

class InputError extends Error {}

type Options = { file: string; json: boolean; timeZone: string | undefined; dateOrder: DateOrder | undefined };

export async function run(argv: string[], io: CommandIo = processIo): Promise<number> {
  try {
    const options = parseOptions(argv);
    if (options === null) {
      io.stdout.write(usage);
      return 0;
    }
    const text = readInput(options.file);
    let parsed: ParsedChatExport;
    try {
      parsed = parseWhatsappExport(text, { timeZone: options.timeZone, dateOrder: options.dateOrder });
    } catch (error) {
      // The engine refuses an unknown time zone with a RangeError naming the option.
      if (error instanceof RangeError) throw new InputError(`--timezone: unknown time zone "${options.timeZone ?? ''}"`);
      throw error;
    }
    // Problems (lines the parser could not place) are reported without the lines' text: it is personal data.
    for (const problem of parsed.problems ?? []) io.stderr.write(`whatsapp-export: ${problem.message}\n`);
    if (parsed.messages.length === 0)
      throw new InputError(`${options.file}: no WhatsApp message header found (is it an "Export chat" text file?)`);
    io.stdout.write(options.json ? formatJson(parsed) : formatSummary(parsed, options));
    return 0;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr.write(`whatsapp-export: ${error.message}\n`);
    return 2;
  }
}

function parseOptions(argv: string[]): Options | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        timezone: { type: 'string' },
        'date-order': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new InputError(`${error instanceof Error ? error.message.split('\n')[0]! : String(error)} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length !== 1) throw new InputError(`expected one FILE, got ${positionals.length} (see --help)`);
  const dateOrder = values['date-order'];
  if (dateOrder !== undefined && !dateOrders.includes(dateOrder as DateOrder)) {
    throw new InputError(`--date-order must be one of ${dateOrders.join(', ')}, not "${dateOrder}"`);
  }
  return { file: positionals[0]!, json: values.json, timeZone: values.timezone, dateOrder: dateOrder as DateOrder | undefined };
}

function readInput(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : code;
    throw new InputError(`cannot read ${file}: ${reason || 'unreadable'}`);
  }
}

function formatJson(parsed: ParsedChatExport): string {
  const messages = parsed.messages.map(({ timestamp, author, text }) => ({ timestamp, author, text }));
  return `${JSON.stringify({ messages, participants: parsed.participants })}\n`;
}

function formatSummary(parsed: ParsedChatExport, options: Options): string {
  const perAuthor = new Map(parsed.participants.map((participant) => [participant, 0]));
  let media = 0;
  let system = 0;
  for (const message of parsed.messages) {
    if (message.author !== null) perAuthor.set(message.author, (perAuthor.get(message.author) ?? 0) + 1);
    if (message.kind === 'media') media += 1;
    if (message.kind === 'system') system += 1;
  }
  const times = parsed.messages.map((message) => message.timestamp).sort();
  const width = Math.max(11, ...parsed.participants.map((participant) => participant.length));
  return [
    `${parsed.messages.length} messages from ${times[0]} to ${times.at(-1)} (UTC; read as ${options.timeZone ?? 'UTC'} wall-clock time, date order ${parsed.dateOrder}${options.dateOrder === undefined ? ', inferred' : ''})`,
    '',
    `${'Participant'.padEnd(width)}  Messages`,
    ...[...perAuthor].map(([participant, count]) => `${participant.padEnd(width)}  ${String(count).padStart(8)}`),
    '',
    `Media messages (placeholders, counted in the participants' totals): ${media}`,
    `System messages (no author): ${system}`,
    '',
  ].join('\n');
}
