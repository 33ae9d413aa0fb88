import type { CommandService } from '@shiftcover/command-api';
import type { CommandHandler, EventStore } from '@shiftcover/eventstore';
import type { Sql } from 'postgres';
import type { SmtpTransport } from '../mail/smtp';
import type { EventHandler } from '../nats/consumer';

export interface ProcessRoutesDeps {
  sql: Sql;
  store: EventStore;
  handler: CommandHandler;
  service: CommandService;
  /** The configured SMTP server; without one, mails are kept in the outbox. */
  smtp?: SmtpTransport;
  /** The process managers whose parked events can be retried here, by consumer name. */
  handlers: EventHandler[];
  readModelsAt(position: bigint, readModels: readonly string[]): Promise<void>;
  clock?: () => Date;
}
