/**
 * A local stand-in for Twilio's Messages resource (POST /2010-04-01/Accounts/{AccountSid}/Messages.json), so
 * the twilio library can be pointed at it (TWILIO_API_URL) in tests: basic authentication with the account
 * SID and auth token, Twilio's required parameters, its success JSON (a message in status queued) and its
 * error JSON ({ code, message, more_info, status }); it can be told to fail the next sends, and records them.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedTwilioRequest = { path: string; authorization: string | null; form: Record<string, string> };
export type TwilioFailure = { httpStatus: number; code: number; times?: number };

export type LocalTwilioApi = {
  url: string;
  accountSid: string;
  authToken: string;
  received: ReceivedTwilioRequest[];
  accepted: () => ReceivedTwilioRequest[];
  failNext: (failure: TwilioFailure) => void;
  stop: () => Promise<void>;
};

export async function startLocalTwilioApi(options: { accountSid?: string; authToken?: string } = {}): Promise<LocalTwilioApi> {
  const accountSid = options.accountSid ?? `AC${'0'.repeat(32)}`;
  const authToken = options.authToken ?? 'local-twilio-token';
  const received: ReceivedTwilioRequest[] = [];
  const acceptedIndexes: number[] = [];
  const failures: TwilioFailure[] = [];
  const refuse = (response: http.ServerResponse, status: number, code: number, message: string) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
  };

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      const index = received.push({ path: request.url ?? '', authorization: request.headers.authorization ?? null, form }) - 1;
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.url ?? '');
      if (request.method !== 'POST' || match === null) return refuse(response, 404, 20404, 'The requested resource was not found');
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (request.headers.authorization !== expected || match[1] !== accountSid) return refuse(response, 401, 20003, 'Authenticate');
      if (form.To === undefined || form.To === '') return refuse(response, 400, 21604, "A 'To' phone number is required.");
      if (!/^\+[1-9][0-9]{5,14}$/.test(form.To)) return refuse(response, 400, 21211, "The 'To' number is not a valid phone number.");
      if ((form.From ?? '') === '' && (form.MessagingServiceSid ?? '') === '')
        return refuse(response, 400, 21603, "A 'From' phone number is required.");
      if ((form.Body ?? '') === '' && (form.MediaUrl ?? '') === '') return refuse(response, 400, 21602, 'Message body is required.');
      if (form.Body !== undefined && form.Body.length > 1600)
        return refuse(response, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
      if (form.StatusCallback !== undefined && !/^https?:\/\//.test(form.StatusCallback))
        return refuse(response, 400, 21609, 'Invalid StatusCallback URL');
      const failure = failures[0];
      if (failure !== undefined) {
        failure.times = (failure.times ?? 1) - 1;
        if (failure.times <= 0) failures.shift();
        return refuse(response, failure.httpStatus, failure.code, `Forced failure ${failure.code}`);
      }
      acceptedIndexes.push(index);
      const sid = `SM${randomBytes(16).toString('hex')}`;
      const now = new Date().toUTCString();
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          sid,
          account_sid: accountSid,
          to: form.To,
          from: form.From ?? null,
          body: form.Body,
          status: 'queued',
          direction: 'outbound-api',
          num_segments: '1',
          date_created: now,
          date_updated: now,
          date_sent: null,
          error_code: null,
          error_message: null,
          api_version: '2010-04-01',
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    received,
    accepted: () => acceptedIndexes.map((index) => received[index]!),
    failNext: (failure) => failures.push({ ...failure }),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
