import postgres, { type Sql } from 'postgres';

export interface ConnectOptions {
  max?: number;
}

/**
 * A connection pool with the project's conventions: bigint as bigint, notices not printed, and a
 * lost server tried again within half a second (the client's default waits up to 20 s once a few
 * attempts have failed, which holds requests during an outage and long after it).
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    backoff: (attempts) => Math.min(0.05 * 2 ** attempts, 0.5),
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: { application_name: 'shiftcover' },
  });
}
