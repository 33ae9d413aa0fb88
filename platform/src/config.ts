import { isIP } from 'node:net';
import { z } from 'zod';

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(part: string): boolean {
  const [address = '', bits, ...rest] = part.split('/');
  if (NAMED_RANGES.has(part)) return true;
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url().optional())
  .optional();

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * Where the projector and the processes, which serve no API, answer `/healthz`, `/readyz` and
   * `/metrics` (0: any free port); they open no port when unset.
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Port of the embedded PostgreSQL; a free one is picked when unset. */
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** PostgreSQL for read models, sessions and (by default) the event store; embedded when unset. */
  DATABASE_URL: optionalUrl,
  /**
   * Connections of a process's main PostgreSQL pool (commands, reads, sessions, process managers;
   * the projector has a few of its own). Unset: four per CPU core of this machine, 8 to 20.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).optional(),
  /** EventStoreDB connection string; the event store lives in PostgreSQL when unset. */
  EVENTSTORE_URL: z.string().trim().optional(),
  NATS_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Shift Coverage <no-reply@shiftcover.local>'),
  PUBLIC_URL: optionalUrl,
  /**
   * Proxies whose `X-Forwarded-For` is believed when naming a caller's address (sign-in throttling
   * counts per address): addresses, CIDRs or the ranges `loopback`, `linklocal` and `uniquelocal`
   * (private networks, as inside docker compose), separated by commas. Unset, no proxy is trusted
   * and the address is the connection's own. A hop count is refused: it cannot tell a proxy from a
   * client that sends the header itself.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.split(',').map((part) => part.trim()) : []))
    .refine((parts) => parts.every(isProxyAddress), {
      message: 'name proxies by address, CIDR, loopback, linklocal or uniquelocal',
    })
    .transform((parts) => (parts.length > 0 ? parts : false)),
  /**
   * Key of the audit hash chain (HMAC-SHA-256), kept outside the database so that database access
   * alone cannot rewrite history and re-seal it. Without it the key is kept in `DATA_DIR`.
   */
  AUDIT_CHAIN_KEY: z.string().trim().min(16).optional(),
  /** The earlier name of `AUDIT_CHAIN_KEY`, read when that is unset. */
  SESSION_SECRET: z.string().optional(),
  /** The read API is ready while every projection is at most this many events behind the log. */
  READY_MAX_LAG: z.coerce.number().int().min(0).default(1000),
  /** Serves `GET /bench/constant`, a constant JSON answer: the bench's yardstick for a read's cost. */
  BENCH_CONSTANT_ROUTE: z.stringbool().default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof configSchema>;

/** A setting of the environment that cannot be used, named with what is wrong with it. */
export class InvalidConfiguration extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new InvalidConfiguration(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * The configuration of a program started by hand (`npm start`, a service, the CLI): a setting that
 * cannot be used is said in one line, without a stack trace, and the program ends with status 1.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof InvalidConfiguration)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
