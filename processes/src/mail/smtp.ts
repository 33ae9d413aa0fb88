import nodemailer from 'nodemailer';
import type { MailTransport } from './sender';

export interface SmtpTransport extends MailTransport {
  /** Connects and authenticates without sending: the SMTP server's answer, or why it failed. */
  verify(): Promise<{ ok: boolean; answer: string }>;
  /** Closes the connections a pooled transport (`?pool=true`) keeps open. */
  close(): void;
}

/** Sends through the SMTP server at `SMTP_URL` (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(url: string): SmtpTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close() {
      transporter.close();
    },
    async verify() {
      try {
        await transporter.verify();
        const { host, port } = new URL(url);
        return { ok: true, answer: `The SMTP server at ${host}:${port || 25} accepted the connection` };
      } catch (error) {
        return { ok: false, answer: String((error as Error).message ?? error) };
      }
    },
  };
}
