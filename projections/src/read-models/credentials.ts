import type { EventData, Projection } from '../projection';

/**
 * The credentials people hold, with their last day: what the expiry notices look for (docs/product.md
 * §10.1). The rules themselves are decided on the schedule streams, never from here.
 */
export const credentialsProjection: Projection = {
  name: 'credentials',
  awaitedByWriters: true,
  version: 1,
  tables: ['credentials'],
  schema: (t) => `
    create table ${t('credentials')} (
      id text primary key,
      user_id text not null,
      name text not null,
      expires_on text
    );
    create index on ${t('credentials')} (expires_on);`,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const credentials = tx(t('credentials'));
    switch (event.type) {
      case 'CredentialRecorded':
        await tx`delete from ${credentials} where id = any(${d.replaces})`;
        await tx`insert into ${credentials} (id, user_id, name, expires_on)
          values (${d.credentialId}, ${d.userId}, ${d.name}, ${d.expiresOn}) on conflict (id) do nothing`;
        return;
      case 'CredentialRemoved':
        await tx`delete from ${credentials} where id = ${d.credentialId}`;
        return;
      case 'UserDeleted':
        await tx`delete from ${credentials} where user_id = ${d.userId}`;
        return;
    }
  },
};
