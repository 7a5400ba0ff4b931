import 'server-only';
import nodemailer from 'nodemailer';
import type { Database } from '@/db/client';
import { outboxMessages } from '@/db/schema';

export type OutgoingEmail = { to: string; subject: string; text: string; replyTo?: string };

export type Mailer = {
  channel: 'smtp' | 'outbox';
  send: (email: OutgoingEmail) => Promise<void>;
};

/** Delivers through the SMTP server named by `smtpUrl`. */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    channel: 'smtp',
    send: async (email) => {
      await transport.sendMail({ from: options.from, ...email });
    },
  };
}

/** The local counterpart of SMTP: the e-mail is recorded in the outbox table, where development pages and tests read it. */
export function createOutboxMailer(options: { database: Database }): Mailer {
  return {
    channel: 'outbox',
    send: async (email) => {
      await options.database.insert(outboxMessages).values({
        channel: 'email',
        recipient: email.to,
        subject: email.subject,
        body: email.replyTo === undefined ? email.text : `Reply-To: ${email.replyTo}\n\n${email.text}`,
      });
    },
  };
}

export function createMailer(options: { database: Database; smtpUrl: string | undefined; from: string }): Mailer {
  return options.smtpUrl === undefined
    ? createOutboxMailer({ database: options.database })
    : createSmtpMailer({ smtpUrl: options.smtpUrl, from: options.from });
}
