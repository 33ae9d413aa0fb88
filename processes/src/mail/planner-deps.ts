import type { EventStore, PersonalDataVault } from '@shiftcover/eventstore';
import type { Sql } from 'postgres';

/** What planning mail needs: the store and read models it reads, and how it addresses and keeps mail. */
export interface MailPlannerDeps {
  sql: Sql;
  store: EventStore;
  /** Opens addresses typed in by hand, sealed in the events that name them. */
  vault: Pick<PersonalDataVault, 'open'>;
  /** Resolves once the named read models have applied the position (recipients come from them). */
  readModelsAt(position: bigint, readModels: readonly string[]): Promise<void>;
  publicUrl: string;
  /** With no SMTP server, mails are kept in the outbox for developers to read. */
  smtpConfigured: boolean;
  /** Where planned deliveries are collected instead of stored at once (a batch planned together). */
  outbox?: Delivery[];
}

/** One row of `email_deliveries` as planned: a mail to one recipient, for one event. */
export interface Delivery {
  event_id: string;
  recipient: string;
  kind: string;
  subject: string;
  text_body: string;
  html_body: string;
  attachments: unknown;
  status: 'queued' | 'outbox';
}
