import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { ensurePrivateDirectory } from '../db/data-dir.ts';

export interface OutgoingMail {
  /** Names the outbox file; unique per message. */
  id: string;
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export type Delivery = { via: 'smtp'; messageId: string } | { via: 'outbox'; file: string };

/** The SMTP server refused the message or could not be reached; the message is safe to show. */
export class MailDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

export interface Mailer {
  readonly via: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<Delivery>;
}

/** Bounds every SMTP phase so a silent server cannot hold a request open for minutes. */
const SMTP_TIMEOUT_MS = 10_000;
const MAX_ERROR_LENGTH = 500;

/** SMTP when `smtpUrl` is set, otherwise `.eml` files in `DATA_DIR/outbox`. */
export function createMailer(config: { smtpUrl: string | undefined; dataDir: string }): Mailer {
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl)
    : outboxMailer(path.join(config.dataDir, 'outbox'));
}

function smtpMailer(smtpUrl: string): Mailer {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    dnsTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    via: 'smtp',
    async send(mail) {
      try {
        const info = await transporter.sendMail(messageOptions(mail));
        return { via: 'smtp', messageId: info.messageId };
      } catch (error) {
        throw new MailDeliveryError(safeErrorMessage(error, smtpUrl));
      }
    },
  };
}

function outboxMailer(outboxDir: string): Mailer {
  const transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  return {
    via: 'outbox',
    async send(mail) {
      const info = await transporter.sendMail(messageOptions(mail));
      if (!Buffer.isBuffer(info.message))
        throw new Error('The stream transport returned no buffer.');
      ensurePrivateDirectory(outboxDir);
      const file = path.join(outboxDir, `${path.basename(mail.id)}.eml`);
      // Write then rename so a reader of the outbox never sees half a message.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, info.message, { mode: 0o600 });
      await fs.rename(partial, file);
      return { via: 'outbox', file };
    },
  };
}

function messageOptions(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: { name: mail.to.name, address: mail.to.address },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers ?? {},
  };
}

/** One line, bounded, and without the SMTP credentials even if a library echoed them. */
function safeErrorMessage(error: unknown, smtpUrl: string): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const secret of credentialsOf(smtpUrl)) message = message.split(secret).join('***');
  message = message.replace(/\s+/g, ' ').trim() || 'unknown error';
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message;
}

function credentialsOf(smtpUrl: string): string[] {
  const url = new URL(smtpUrl);
  const secrets = [url.password, safeDecode(url.password)];
  return [...new Set(secrets)].filter((secret) => secret.length > 0);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
