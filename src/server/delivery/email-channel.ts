import nodemailer from 'nodemailer';
import type { Outbox } from './outbox.ts';

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the e-mail carries, kept apart so the dev outbox can show it. */
  link?: string;
};

/** Sends an e-mail. Implementations throw when the message could not be handed over. */
export interface EmailChannel {
  readonly kind: 'outbox' | 'smtp';
  send(message: EmailMessage): Promise<void>;
  close?(): Promise<void>;
}

/** E-mails written to the dev outbox instead of sent. */
export function createOutboxEmailChannel(outbox: Outbox): EmailChannel {
  return {
    kind: 'outbox',
    async send(message) {
      await outbox.record({
        channel: 'email',
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        link: message.link,
      });
    },
  };
}

/** E-mails sent by SMTP (`SMTP_URL`, e.g. smtps://user:pass@mail.example.com:465) from `SMTP_FROM`. */
export function createSmtpEmailChannel(settings: { url: string; from: string }): EmailChannel {
  const transport = nodemailer.createTransport(settings.url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
