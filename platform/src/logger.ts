import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs; password and session fields are never written. */
export function createLogger(level: string = 'info'): Logger {
  return pino({
    level,
    redact: {
      paths: ['*.password', '*.newPassword', '*.currentPassword', '*.passwordHash', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  });
}
