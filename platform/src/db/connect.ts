import postgres, { type Sql } from 'postgres';

export interface ConnectOptions {
  max?: number;
}

/** A connection pool with the project's conventions: bigint as bigint, notices not printed. */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: { application_name: 'shiftcover' },
  });
}
