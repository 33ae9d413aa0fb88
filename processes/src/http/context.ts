import type { CommandHandler, EventStore } from '@shiftcover/eventstore';
import type { Sql } from 'postgres';
import type { Commands } from '../commands';
import type { SmtpTransport } from '../mail/smtp';
import type { EventHandler } from '../nats/consumer';

export interface ProcessRoutesDeps {
  sql: Sql;
  store: EventStore;
  handler: CommandHandler;
  service: Commands;
  /** The configured SMTP server; without one, mails are kept in the outbox. */
  smtp?: SmtpTransport;
  /** The process managers whose parked events can be retried here, by consumer name. */
  handlers: EventHandler[];
  readModelsAt(position: bigint, readModels: readonly string[]): Promise<void>;
  clock?: () => Date;
}
