import { describe, expect, it } from 'vitest';
import { socketOf } from './connect';

describe('a database URL naming a Unix socket', () => {
  it("is read in libpq's form: the socket from ?host and the port, the URL without it", () => {
    expect(socketOf('postgres://u:p%40ss@127.0.0.1:5433/db?host=%2Fvar%2Frun%2Fpg&sslmode=disable')).toEqual({
      tcp: 'postgres://u:p%40ss@127.0.0.1:5433/db?sslmode=disable',
      socket: '/var/run/pg/.s.PGSQL.5433',
    });
    expect(socketOf('postgres://u@localhost/db?host=/tmp')).toEqual({
      tcp: 'postgres://u@localhost/db',
      socket: '/tmp/.s.PGSQL.5432',
    });
  });

  it('leaves a URL without one as it is, a host that is not a directory included', () => {
    expect(socketOf('postgres://u@db:5432/app')).toEqual({ tcp: 'postgres://u@db:5432/app' });
    expect(socketOf('postgres://u@db/app?host=other&application_name=x')).toEqual({
      tcp: 'postgres://u@db/app?host=other&application_name=x',
    });
  });
});
