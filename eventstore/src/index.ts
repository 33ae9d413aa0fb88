/** Thrown when a command loses every attempt to concurrent changes; defined where HTTP maps it to 503. */
export { RetriesExhausted } from '@shiftcover/platform';
export { type ChainBreak, type ChainKey, ChainVerifier, canonicalJson } from './chain';
export {
  type Alongside,
  type AppendHooks,
  CommandHandler,
  type CommandHandlerOptions,
  type CommandTrace,
  type HandleResult,
  type LoadedStream,
  type ReadAhead,
  SNAPSHOT_EVERY,
  snapshotKind,
} from './command-handler';
export { createEsdbEventStore, type EsdbEventStoreOptions } from './esdb/esdb-event-store';
export { addressSubject, type Erasure, PersonalDataVault, personalDataMigrations } from './personal-data';
export type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  StreamAppend,
  StreamHead,
  Subscription,
  TogetherResult,
} from './port';
export { WrongExpectedRevision } from './port';
export {
  countEventsAfter,
  createPostgresEventStore,
  migrateEventStore,
  type PostgresEventStoreOptions,
} from './postgres/postgres-event-store';
export { Recent } from './recent';
export { PostgresSnapshots, type SnapshotStore, type StoredSnapshot, snapshotMigrations } from './snapshots';
export { AskedTogether, StreamHeads } from './stream-heads';
export { type Upcaster, upcast } from './upcasting';
