import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTwilioSmsSender } from './sms';

type Received = { method: string; url: string; authorization: string; body: URLSearchParams };

/** A local HTTP server standing in for Twilio's REST API: it records what arrives and answers like Twilio. */
async function startTwilioCounterpart(status: number): Promise<{ url: string; received: Received[]; stop: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization ?? '',
        body: new URLSearchParams(body),
      });
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(status === 201 ? { sid: 'SM123', status: 'queued' } : { code: 21211, message: 'Invalid To' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('createTwilioSmsSender', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
  });

  it('posts the message form to the account Messages resource with basic authentication', async () => {
    const twilio = await startTwilioCounterpart(201);
    stop = twilio.stop;
    const sender = createTwilioSmsSender({ accountSid: 'AC0123', authToken: 'secret-token', from: '+15005550006', apiUrl: twilio.url });
    await sender.send({ to: '+447700900123', body: '123456 is your code' });
    expect(twilio.received).toHaveLength(1);
    const [request] = twilio.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/2010-04-01/Accounts/AC0123/Messages.json');
    expect(request?.authorization).toBe(`Basic ${Buffer.from('AC0123:secret-token').toString('base64')}`);
    expect(Object.fromEntries(request?.body ?? [])).toEqual({ To: '+447700900123', From: '+15005550006', Body: '123456 is your code' });
  });

  it('fails when Twilio refuses the message, naming only the status', async () => {
    const twilio = await startTwilioCounterpart(400);
    stop = twilio.stop;
    const sender = createTwilioSmsSender({ accountSid: 'AC0123', authToken: 't', from: '+15005550006', apiUrl: twilio.url });
    await expect(sender.send({ to: '+1', body: 'x' })).rejects.toThrow('Twilio refused the message (HTTP 400)');
  });
});
