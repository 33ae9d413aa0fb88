import { freePort } from '@shiftcover/platform';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  inbox: Received[];
  close(): Promise<void>;
}

/** A real SMTP server on a free port that keeps every message it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const inbox: Received[] = [];
  const port = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  // A sender that dies mid-session resets its connection: no failure of the server's.
  smtp.on('error', () => {});
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

export function subjectOf(raw: string): string {
  return /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
}
