import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';

/**
 * Crypto-shredding for personal data in immutable events. An event's `data.personal` is sealed
 * with a key belonging to its subject: `data.personalSubject` when the event names one (an
 * address typed in by hand is sealed under `addressSubject(address)`), else `data.userId`.
 * Erasing a person destroys their key and the keys of their addresses, after which every stored
 * copy of their personal data is unreadable and reads back as `personal: null`.
 */

export const personalDataMigrations = [
  {
    id: '001-personal-data-keys',
    up: `create table personal_data_keys (
      subject_id text primary key,
      key bytea not null,
      created_at timestamptz not null default now()
    );
    create table personal_data_erasures (
      subject_id text primary key,
      erased_at timestamptz not null default now()
    );`,
  },
];

interface SealedPersonalData {
  sealed: string;
}

type EventData = Record<string, unknown>;

function isSealed(value: unknown): value is SealedPersonalData {
  return (
    typeof value === 'object' && value !== null && typeof (value as SealedPersonalData).sealed === 'string'
  );
}

/** Whether the event carries sealed personal data: what it reads as changes when its key is erased. */
export function holdsPersonalData(event: { data: EventData }): boolean {
  return isSealed(event.data.personal);
}

function subjectOf(data: EventData): string | undefined {
  if (!('personal' in data) || data.personal == null) return undefined;
  if (typeof data.personalSubject === 'string') return data.personalSubject;
  return typeof data.userId === 'string' ? data.userId : undefined;
}

/** The subject an e-mail address is sealed under, whoever it belongs to. */
export function addressSubject(address: string): string {
  return `address:${createHash('sha256').update(address.trim().toLowerCase()).digest('base64url')}`;
}

/** A person being erased: their id and their personal data as it was just before. */
export interface Erasure {
  subjectId: string;
  personal: { [field: string]: unknown } | null;
}

export class PersonalDataVault {
  private readonly steps: Array<(erasure: Erasure) => Promise<void>> = [];

  constructor(private readonly sql: Sql) {}

  /**
   * A step of every erasure, run before the keys are destroyed (while the person's data is still
   * known): copies of it kept outside the events, such as mail, are scrubbed by these.
   */
  alsoErase(step: (erasure: Erasure) => Promise<void>): void {
    this.steps.push(step);
  }

  /** Seals `data.personal` of each event with its subject's key, creating the key on first use. */
  async seal<E extends { data: EventData }>(events: E[]): Promise<E[]> {
    const subjects = [...new Set(events.map((e) => subjectOf(e.data)).filter((s) => s !== undefined))];
    if (subjects.length === 0) return events;
    const keys = await this.keysFor(subjects, true);
    return events.map((event) => {
      const subject = subjectOf(event.data);
      if (subject === undefined || isSealed(event.data.personal)) return event;
      const key = keys.get(subject);
      const personal = key ? { sealed: encrypt(key, JSON.stringify(event.data.personal)) } : null;
      return { ...event, data: { ...event.data, personal } };
    });
  }

  /**
   * Opens sealed personal data; an erased subject's data reads as null. Inside a transaction, pass
   * it as `sql`: the keys are then read on the transaction's own connection, rather than waiting
   * for another of a pool whose connections the transactions may all be holding.
   */
  async open<E extends { data: EventData }>(events: E[], sql: Sql | TransactionSql = this.sql): Promise<E[]> {
    const subjects = [
      ...new Set(
        events
          .filter((e) => isSealed(e.data.personal))
          .map((e) => subjectOf(e.data))
          .filter((s) => s !== undefined),
      ),
    ];
    if (subjects.length === 0) return events;
    const keys = await this.keysFor(subjects, false, sql);
    return events.map((event) => {
      const sealed = event.data.personal;
      if (!isSealed(sealed)) return event;
      const key = keys.get(subjectOf(event.data) ?? '');
      const personal = key ? JSON.parse(decrypt(key, sealed.sealed)) : null;
      return { ...event, data: { ...event.data, personal } };
    });
  }

  /**
   * Runs the erasure steps, then destroys the subject's key for good (a later seal for this
   * subject stores nothing) and the keys of their addresses (an address may be someone's again
   * later, so it gets a new key when next used).
   */
  async erase(subjectId: string, personal: Erasure['personal'] = null): Promise<void> {
    for (const step of this.steps) await step({ subjectId, personal });
    const addresses = [personal?.email, personal?.notificationEmail]
      .filter((a): a is string => typeof a === 'string' && a !== '')
      .map(addressSubject);
    await this.sql.begin(async (tx) => {
      await tx`insert into personal_data_erasures (subject_id) values (${subjectId}) on conflict do nothing`;
      await tx`delete from personal_data_keys where subject_id = any(${[subjectId, ...addresses]})`;
    });
  }

  private async keysFor(
    subjects: string[],
    create: boolean,
    sql: Sql | TransactionSql = this.sql,
  ): Promise<Map<string, Buffer>> {
    if (create) {
      for (const subject of subjects) {
        await this.sql`
          insert into personal_data_keys (subject_id, key)
          select ${subject}, ${randomBytes(32)}
          where not exists (select 1 from personal_data_erasures where subject_id = ${subject})
          on conflict do nothing`;
      }
    }
    const rows = await sql<{ subject_id: string; key: Buffer }[]>`
      select subject_id, key from personal_data_keys where subject_id = any(${subjects})`;
    return new Map(rows.map((row) => [row.subject_id, row.key]));
  }
}

function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function decrypt(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
