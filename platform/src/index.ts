export { type Config, configSchema, InvalidConfiguration, loadConfig, loadConfigOrExit } from './config';
export { type CsvCell, csv } from './csv';
export { type ConnectOptions, connect, postgresAt, socketOf, withQueryParameter } from './db/connect';
export { EmbeddedPostgresUnavailable } from './db/embedded-unavailable';
export { type Migration, migrate } from './db/migrate';
export {
  type Caller,
  caller,
  commandContext,
  type PrincipalLookup,
  requireCapability,
  type SignedIn,
  type StreamLoader,
  signedIn,
} from './http/caller';
export {
  checkRequestHeaders,
  commandTrace,
  idParams,
  newId,
  written,
} from './http/commands';
export { mapDomainError } from './http/domain-errors';
export {
  DATABASE_UNAVAILABLE_MESSAGE,
  type ErrorMapping,
  HttpError,
  registerErrorHandler,
} from './http/errors';
export { feedTokenHash, newFeedToken } from './http/feed-token';
export { healthRoutes, postgresCheck, type ReadinessCheck } from './http/health';
export { Metrics } from './http/metrics';
export { type SecurityOptions, security } from './http/security';
export {
  SESSION_COOKIE,
  type SessionData,
  SessionStore,
  sessionKey,
  sessionMigrations,
  sessions,
} from './http/sessions';
export {
  type Admitted,
  DEFAULT_THROTTLE_LIMITS,
  LoginThrottle,
  type Refused,
  type ThrottleLimits,
  throttleMigrations,
} from './http/throttle';
export { createLogger, type Logger } from './logger';
export { launchNatsServer, type NatsServer, type NatsServerOptions, natsServerBinary } from './nats/server';
export { freePort } from './net';
export { hashPassword, hashPasswordsCheaplyInTests, needsRehash, verifyPassword } from './password';
export { RetriesExhausted } from './retries';
