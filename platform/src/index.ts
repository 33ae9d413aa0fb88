export { type Config, loadConfig } from './config';
export { type ConnectOptions, connect } from './db/connect';
export { type EmbeddedDatabase, type EmbeddedOptions, startEmbeddedPostgres } from './db/embedded';
export { type Migration, migrate } from './db/migrate';
export { createLogger, type Logger } from './logger';
export { freePort } from './net';
export { hashPassword, verifyPassword } from './password';
