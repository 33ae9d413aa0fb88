import postgres, { type Sql } from 'postgres';

export interface ConnectOptions {
  max?: number;
  /**
   * Commits return once written, without waiting for the disk (`synchronous_commit = off`): for
   * a pool whose writes are worked out again from the event log after a crash, the read models'.
   * A crash can lose the last fraction of a second of them, each transaction whole or not at all,
   * and the projector then applies those events again from its checkpoint.
   */
  asyncCommit?: boolean;
  /**
   * Every statement planned for the values it is run with (`plan_cache_mode = force_custom_plan`),
   * never from a plan cached on the connection: for a pool that looks rows up by the batch in
   * tables that grow under it, the read models'. A plan cached while a table was nearly empty (a
   * sequential scan) would otherwise stay until PostgreSQL next analyzes the table, and scan the
   * whole table for every batch meanwhile.
   */
  customPlans?: boolean;
}

/**
 * A connection pool with the project's conventions: bigint as bigint, notices not printed, and a
 * lost server tried again within half a second (the client's default waits up to 20 s once a few
 * attempts have failed, which holds requests during an outage and long after it).
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgresAt(url, {
    max: options.max ?? 10,
    backoff: (attempts) => Math.min(0.05 * 2 ** attempts, 0.5),
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: {
      application_name: 'shiftcover',
      ...(options.asyncCommit ? { synchronous_commit: 'off' } : {}),
      ...(options.customPlans ? { plan_cache_mode: 'force_custom_plan' } : {}),
    },
  });
}

/**
 * A pool with options of the caller's own, at a URL that may name a Unix socket (see `socketOf`).
 */
export function postgresAt(
  url: string,
  options: postgres.Options<Record<string, postgres.PostgresType>>,
): Sql {
  const { tcp, socket } = socketOf(url);
  return postgres(tcp, { ...(socket ? { path: socket } : {}), ...options });
}

/** `url` with `name=value` added to its query. */
export function withQueryParameter(url: string, name: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/**
 * libpq's way of naming a Unix socket in a URL, `?host=/its/directory`, which the client library
 * does not read (it would send `host` to the server as a setting): the socket's path, and the URL
 * without it. The URL's own host and port stay the server's TCP address; the port names the socket.
 */
export function socketOf(url: string): { tcp: string; socket?: string } {
  const question = url.indexOf('?');
  if (question === -1) return { tcp: url };
  const query = new URLSearchParams(url.slice(question + 1));
  const directory = query.get('host');
  if (!directory?.startsWith('/')) return { tcp: url };
  query.delete('host');
  const rest = query.toString();
  const tcp = url.slice(0, question) + (rest ? `?${rest}` : '');
  const port = new URL(tcp).port || '5432';
  return { tcp, socket: `${directory}/.s.PGSQL.${port}` };
}
