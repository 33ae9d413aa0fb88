import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Anything that looks like an e-mail address, URL-encoded or not. */
const ADDRESS = /[a-z0-9._%+-]+(?:@|%40)[a-z0-9.-]+\.[a-z]{2,}/gi;
const maskAddresses = (text: string) => text.replace(ADDRESS, '[address]');

/**
 * JSON logs. Passwords, session cookies and personal data are never written: fields that name a
 * person are redacted, and addresses inside error messages (an SMTP server's refusal names its
 * recipient) and request URLs are masked.
 */
export function createLogger(level: string = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          '*.password',
          '*.newPassword',
          '*.currentPassword',
          '*.passwordHash',
          'req.headers.cookie',
          '*.personal',
          '*.email',
          '*.notificationEmail',
          '*.username',
          '*.firstName',
          '*.lastName',
          '*.recipient',
        ],
        censor: '[redacted]',
      },
      serializers: {
        err: (error: Error) => {
          const serialized = pino.stdSerializers.err(error);
          return {
            ...serialized,
            message: maskAddresses(serialized.message ?? ''),
            stack: maskAddresses(serialized.stack ?? ''),
          };
        },
        req: (request: { method?: string; url?: string; host?: string; ip?: string }) => ({
          method: request.method,
          url: maskAddresses(request.url ?? ''),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    destination,
  );
}
