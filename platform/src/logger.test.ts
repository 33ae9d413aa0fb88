import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

/** A logger writing into an array of lines. */
function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('logs', () => {
  it('never write a person’s name, username, addresses or password', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        user: { username: 'zephyrine', firstName: 'Zephyrine', lastName: 'Okonkwo', email: 'zo@example.org' },
        mail: { recipient: 'zo@example.org' },
        event: { personal: { email: 'zo@example.org' }, password: 'secret' },
      },
      'something happened',
    );
    logger.error({ err: new Error('550 5.1.1 <zo@example.org>: Recipient address rejected') }, 'send failed');
    logger.info({ req: { method: 'GET', url: '/api/users?search=zo%40example.org' } }, 'request');
    const written = lines.join('');
    expect(written).not.toMatch(/zephyrine|okonkwo|zo@example\.org|secret/i);
    expect(written).toContain('Recipient address rejected');
    expect(written).toContain('/api/users?search=[address]');
  });
});
