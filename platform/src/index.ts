export { type Config, configSchema, loadConfig } from './config';
export { type ConnectOptions, connect } from './db/connect';
export { type EmbeddedDatabase, type EmbeddedOptions, startEmbeddedPostgres } from './db/embedded';
export { type Migration, migrate } from './db/migrate';
export {
  DATABASE_UNAVAILABLE_MESSAGE,
  type ErrorMapping,
  HttpError,
  registerErrorHandler,
} from './http/errors';
export { type SecurityOptions, security } from './http/security';
export { SESSION_COOKIE, type SessionData, SessionStore, sessionMigrations, sessions } from './http/sessions';
export { LoginThrottle, type ThrottleLimits, throttleMigrations } from './http/throttle';
export { createLogger, type Logger } from './logger';
export { freePort } from './net';
export { hashPassword, verifyPassword } from './password';
