import nodemailer from 'nodemailer';
import type { MailTransport } from './sender';

/** Sends through the SMTP server at `SMTP_URL` (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
  };
}
