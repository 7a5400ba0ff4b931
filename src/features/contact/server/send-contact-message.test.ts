import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, outboxMessages } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { createOutboxMailer, createSmtpMailer } from '@/lib/server/mailer';
import { sendContactMessage } from './send-contact-message';

const validInput = {
  subject: 'Pilot in our clinic',
  message: 'Could we talk about a pilot for 200 patients?',
  contactName: 'Ada Lovelace',
  contactEmail: 'ada@example.org',
  contactNumber: '+44 20 7946 0958',
};

/** A real SMTP server on loopback that keeps what it receives. */
async function startSmtpServer(): Promise<{ url: string; received: string[]; stop: () => Promise<void> }> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(testDatabaseBackends())('sendContactMessage on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const send = (input: Record<string, unknown>, overrides: Partial<Parameters<typeof sendContactMessage>[0]> = {}) =>
    sendContactMessage({
      database: database.database,
      mailer: createOutboxMailer({ database: database.database }),
      recipient: 'team@medaptive.test',
      clientAddress: '198.51.100.20',
      limitPerMinute: 5,
      input,
      ...overrides,
    });

  it('stores the message and records the e-mail in the local outbox', async () => {
    const result = await send(validInput);
    expect(result.delivery).toBe('sent');
    const stored = await database.database.select().from(contactMessages);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: result.id,
      subject: validInput.subject,
      contactName: 'Ada Lovelace',
      contactEmail: 'ada@example.org',
      contactNumber: '+44 20 7946 0958',
      deliveryChannel: 'outbox',
      deliveryStatus: 'sent',
    });
    const outbox = await database.database.select().from(outboxMessages);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ channel: 'email', recipient: 'team@medaptive.test', subject: '[Contact] Pilot in our clinic' });
    expect(outbox[0]?.body).toContain('Could we talk about a pilot for 200 patients?');
    expect(outbox[0]?.body).toContain('Reply-To: ada@example.org');
  });

  it('rejects bad input with an error naming the field and stores nothing', async () => {
    const failure = await send({ ...validInput, contactEmail: 'not-an-address' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).httpStatus).toBe(400);
    expect((failure as AppError).message).toBe('The contact form is not valid: contactEmail: Email must be a valid e-mail address.');
    expect((failure as AppError).fieldErrors).toEqual({ contactEmail: 'Email must be a valid e-mail address.' });
    expect(await database.database.select().from(contactMessages)).toEqual([]);
  });

  it('refuses the sixth message a minute from one client with 429, and not another client', async () => {
    const now = new Date('2026-03-02T10:00:30Z');
    for (let index = 0; index < 5; index += 1) await send(validInput, { now });
    const failure = await send(validInput, { now }).catch((error: unknown) => error);
    expect((failure as AppError).httpStatus).toBe(429);
    await expect(send(validInput, { clientAddress: '198.51.100.21', now })).resolves.toMatchObject({ delivery: 'sent' });
    expect(await database.database.select({ id: contactMessages.id }).from(contactMessages)).toHaveLength(6);
  });

  it('counts any 60 seconds, not a clock minute: five sends before a minute starts leave none for just after it', async () => {
    for (let index = 0; index < 5; index += 1) await send(validInput, { now: new Date('2026-03-02T10:00:59Z') });
    const failure = await send(validInput, { now: new Date('2026-03-02T10:01:00Z') }).catch((error: unknown) => error);
    expect((failure as AppError).httpStatus).toBe(429);
    // A minute after the five, the client may send again.
    await expect(send(validInput, { now: new Date('2026-03-02T10:02:00Z') })).resolves.toMatchObject({ delivery: 'sent' });
  });

  it('delivers through a real SMTP server when one is configured', async () => {
    const smtp = await startSmtpServer();
    try {
      const result = await send(validInput, {
        mailer: createSmtpMailer({ smtpUrl: smtp.url, from: 'Medaptive <no-reply@medaptive.test>' }),
      });
      expect(result.delivery).toBe('sent');
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain('To: team@medaptive.test');
      expect(smtp.received[0]).toContain('Subject: [Contact] Pilot in our clinic');
      expect(smtp.received[0]).toContain('Reply-To: ada@example.org');
      const [stored] = await database.database.select().from(contactMessages);
      expect(stored).toMatchObject({ deliveryChannel: 'smtp', deliveryStatus: 'sent' });
    } finally {
      await smtp.stop();
    }
  });

  it('keeps the message, marked failed, when the mail server cannot be reached', async () => {
    const smtp = await startSmtpServer();
    await smtp.stop(); // its port is now closed
    const result = await send(validInput, { mailer: createSmtpMailer({ smtpUrl: smtp.url, from: 'x@medaptive.test' }) });
    expect(result.delivery).toBe('failed');
    const [stored] = await database.database.select().from(contactMessages);
    expect(stored).toMatchObject({ subject: validInput.subject, deliveryStatus: 'failed' });
  });
});
