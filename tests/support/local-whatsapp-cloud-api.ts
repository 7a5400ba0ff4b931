/**
 * A local stand-in for the WhatsApp Cloud API's send endpoint (POST /{version}/{phone-number-id}/messages),
 * for the adapter's tests and for trying the real adapter in development without Meta:
 *
 *   npx tsx tests/support/local-whatsapp-cloud-api.ts   # then WHATSAPP_API_URL=http://127.0.0.1:<port>
 *
 * It checks the Bearer token and the body's shape as Meta does (errors in Meta's error JSON, with Meta's
 * codes: 190 bad token, 100 invalid parameter, 131009 parameter value), answers Meta's success JSON with a
 * wamid, can be told to fail the next sends with a given HTTP status and error code, and records every
 * request it received. Given the account's approved templates, it refuses a template message as Meta does when the
 * template does not exist in that language (132001) or its parameters do not match the template's (132000): named
 * body parameters by name, quick-reply buttons by index, each with a `payload` parameter. Lives in tests/support (beside tests/e2e/support) rather than src: it is not part of
 * the product, and development normally uses the local channel, which needs no server at all.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export type ReceivedWhatsAppRequest = { path: string; authorization: string | null; body: unknown };
/** An approved template of the account: its named body parameters and how many quick-reply buttons it has. */
export type LocalWhatsAppTemplate = { name: string; language: string; bodyParameters: readonly string[]; quickReplies: number };
export type WhatsAppFailure = { httpStatus: number; code: number; message?: string; times?: number };

export type LocalWhatsAppCloudApi = {
  url: string;
  accessToken: string;
  phoneNumberId: string;
  /** Every request, in arrival order (refused ones too). */
  received: ReceivedWhatsAppRequest[];
  /** Requests it accepted (answered with a wamid). */
  accepted: () => ReceivedWhatsAppRequest[];
  /** The next `times` (default 1) valid sends fail with this status and Meta error code. */
  failNext: (failure: WhatsAppFailure) => void;
  /** The next valid send is read and never answered (a provider that took it and went quiet). */
  hangNext: () => void;
  stop: () => Promise<void>;
};

class MetaError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

const invalid = (details: string) => new MetaError(400, 100, 'Invalid parameter', details);

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${name} must be an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${name} is required`);
  if ([...value].length > max) throw new MetaError(400, 131009, 'Parameter value is not valid', `${name} is longer than ${max} characters`);
  return value;
}

/**
 * Meta's rules for an interactive list: body ≤ 4096, the button's text ≤ 20, 1–10 sections with 1–10 rows in
 * all, a section title (≤ 24) required when there are several, row ids ≤ 200 and unique, titles ≤ 24,
 * descriptions ≤ 72.
 */
function validateList(interactive: Record<string, unknown>): void {
  text(object(interactive.body, 'interactive.body').text, 'interactive.body.text', 4096);
  const action = object(interactive.action, 'interactive.action');
  text(action.button, 'interactive.action.button', 20);
  const sections = action.sections;
  if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10)
    throw invalid('interactive.action.sections must hold 1 to 10 sections');
  const ids = new Set<string>();
  for (const section of sections) {
    const entry = object(section, 'section');
    if (sections.length > 1 || entry.title !== undefined) text(entry.title, 'section.title', 24);
    if (!Array.isArray(entry.rows) || entry.rows.length < 1) throw invalid('section.rows must hold at least 1 row');
    for (const row of entry.rows) {
      const item = object(row, 'row');
      const id = text(item.id, 'row.id', 200);
      if (ids.has(id)) throw invalid('row ids must be unique');
      ids.add(id);
      text(item.title, 'row.title', 24);
      if (item.description !== undefined) text(item.description, 'row.description', 72);
    }
  }
  if (ids.size > 10) throw invalid('a list holds at most 10 rows in all');
}

/** A template message's components against the approved template (when the server was given the account's). */
function validateTemplate(template: Record<string, unknown>, templates: readonly LocalWhatsAppTemplate[] | undefined): void {
  const name = text(template.name, 'template.name', 512);
  const language = text(object(template.language, 'template.language').code, 'template.language.code', 15);
  if (template.components !== undefined && !Array.isArray(template.components)) throw invalid('template.components must be an array');
  const components = (template.components ?? []) as unknown[];
  const bodyNames: string[] = [];
  const buttonIndexes = new Set<number>();
  for (const component of components) {
    const entry = object(component, 'component');
    if (!Array.isArray(entry.parameters)) throw invalid('component.parameters must be an array');
    if (entry.type === 'body') {
      for (const parameter of entry.parameters) {
        const item = object(parameter, 'parameter');
        if (item.type !== 'text') throw invalid('body parameter type must be text');
        const value = text(item.text, 'body parameter text', 32_768);
        // Meta refuses parameters with new lines, tabs or more than four consecutive spaces.
        if (/[\n\t]| {5}/.test(value)) throw new MetaError(400, 132018, 'There was an issue with the parameters in your template.');
        if (item.parameter_name !== undefined) bodyNames.push(text(item.parameter_name, 'parameter_name', 512));
      }
    } else if (entry.type === 'button') {
      if (entry.sub_type !== 'quick_reply' || typeof entry.index !== 'string' || !/^[0-9]$/.test(entry.index))
        throw invalid('button component needs sub_type quick_reply and an index from 0 to 9');
      const index = Number(entry.index);
      if (buttonIndexes.has(index)) throw invalid('each button index may be given once');
      buttonIndexes.add(index);
      const parameter = object(entry.parameters[0], 'button parameter');
      if (entry.parameters.length !== 1 || parameter.type !== 'payload') throw invalid('a quick_reply button takes one payload parameter');
      text(parameter.payload, 'button payload', 1000);
    } else throw invalid(`component type ${String(entry.type)} is not supported here`);
  }
  if (templates === undefined) return;
  const approved = templates.find((candidate) => candidate.name === name && candidate.language === language);
  if (approved === undefined) throw new MetaError(404, 132001, 'Template name does not exist in the translation');
  const expected = [...approved.bodyParameters].sort().join(',');
  if ([...bodyNames].sort().join(',') !== expected || [...buttonIndexes].some((index) => index >= approved.quickReplies))
    throw new MetaError(400, 132000, 'Number of parameters does not match the expected number of params');
}

/** Meta's rules for the kinds of message the send path uses (and only those). */
function validateMessage(body: unknown, templates?: readonly LocalWhatsAppTemplate[]): void {
  const message = object(body, 'the body');
  if (message.messaging_product !== 'whatsapp') throw invalid('The parameter messaging_product is required.');
  if (typeof message.to !== 'string' || !/^\+?[0-9]{6,15}$/.test(message.to)) throw invalid('The parameter to is required.');
  if (message.context !== undefined) text(object(message.context, 'context').message_id, 'context.message_id', 512);
  switch (message.type ?? 'text') {
    case 'text': {
      const content = object(message.text, 'text');
      text(content.body, 'text.body', 4096);
      return;
    }
    case 'interactive': {
      const interactive = object(message.interactive, 'interactive');
      if (interactive.type === 'list') {
        validateList(interactive);
        return;
      }
      if (interactive.type !== 'button') throw invalid('interactive.type must be button or list');
      text(object(interactive.body, 'interactive.body').text, 'interactive.body.text', 1024);
      const buttons = object(interactive.action, 'interactive.action').buttons;
      if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
        throw invalid('interactive.action.buttons must hold 1 to 3 buttons');
      const titles = new Set<string>();
      for (const button of buttons) {
        const entry = object(button, 'button');
        if (entry.type !== 'reply') throw invalid('button.type must be reply');
        const reply = object(entry.reply, 'button.reply');
        text(reply.id, 'button.reply.id', 256);
        const title = text(reply.title, 'button.reply.title', 20);
        if (titles.has(title)) throw invalid('button titles must be unique');
        titles.add(title);
      }
      return;
    }
    case 'template':
      validateTemplate(object(message.template, 'template'), templates);
      return;
    default:
      throw invalid(`message type ${String(message.type)} is not supported here`);
  }
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function metaErrorBody(error: MetaError) {
  return {
    error: {
      message: error.message,
      type: 'OAuthException',
      code: error.code,
      ...(error.details === undefined ? {} : { error_data: { messaging_product: 'whatsapp', details: error.details } }),
      fbtrace_id: randomBytes(8).toString('base64url'),
    },
  };
}

export async function startLocalWhatsAppCloudApi(
  options: {
    accessToken?: string;
    phoneNumberId?: string;
    port?: number;
    /** The account's approved templates; without them any well-formed template message is accepted. */
    templates?: readonly LocalWhatsAppTemplate[];
  } = {},
): Promise<LocalWhatsAppCloudApi> {
  const accessToken = options.accessToken ?? 'local-whatsapp-token';
  const phoneNumberId = options.phoneNumberId ?? '100000000000001';
  const received: ReceivedWhatsAppRequest[] = [];
  const acceptedIndexes: number[] = [];
  const failures: WhatsAppFailure[] = [];
  let hang = false;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const index = received.push({ path: request.url ?? '', authorization: request.headers.authorization ?? null, body }) - 1;
      try {
        const match = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(request.url ?? '');
        if (request.method !== 'POST' || match === null) throw new MetaError(400, 100, 'Unknown path components');
        if (request.headers.authorization !== `Bearer ${accessToken}`)
          throw new MetaError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
        if (decodeURIComponent(match[1]!) !== phoneNumberId)
          throw new MetaError(400, 100, 'Unsupported post request. Object does not exist.');
        validateMessage(body, options.templates);
        if (hang) {
          hang = false;
          return;
        }
        const failure = failures[0];
        if (failure !== undefined) {
          failure.times = (failure.times ?? 1) - 1;
          if (failure.times <= 0) failures.shift();
          throw new MetaError(failure.httpStatus, failure.code, failure.message ?? `Forced failure ${failure.code}`);
        }
        acceptedIndexes.push(index);
        const message = body as { to: string; type?: string };
        answer(response, 200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: message.to, wa_id: message.to.replace(/[^0-9]/g, '') }],
          messages: [
            {
              id: `wamid.${randomBytes(24).toString('base64url')}`,
              ...(message.type === 'template' ? { message_status: 'accepted' } : {}),
            },
          ],
        });
      } catch (error) {
        if (error instanceof MetaError) answer(response, error.httpStatus, metaErrorBody(error));
        else answer(response, 500, metaErrorBody(new MetaError(500, 1, 'An unknown error occurred')));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accessToken,
    phoneNumberId,
    received,
    accepted: () => acceptedIndexes.map((index) => received[index]!),
    failNext: (failure) => failures.push({ ...failure }),
    hangNext: () => {
      hang = true;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run directly for development: prints the URL and the settings to use.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const api = await startLocalWhatsAppCloudApi({ port: Number(process.env.PORT ?? 0) || undefined });
  process.stdout.write(
    `Local WhatsApp Cloud API on ${api.url}\n  WHATSAPP_API_URL=${api.url} WHATSAPP_ACCESS_TOKEN=${api.accessToken} WHATSAPP_PHONE_NUMBER_ID=${api.phoneNumberId}\n`,
  );
}
