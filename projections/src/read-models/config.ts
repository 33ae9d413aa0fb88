import type { EventData, Projection } from '../projection';

export const configProjection: Projection = {
  name: 'system_config',
  awaitedByWriters: true,
  version: 1,
  tables: ['system_config'],
  schema: (t) => `
    create table ${t('system_config')} (
      key text primary key,
      value text not null,
      mailing_list_address text,
      updated_by text,
      updated_at timestamptz not null
    );`,

  async apply(tx, event, t) {
    if (event.type !== 'EmailNotificationModeSet') return;
    const d = event.data as EventData;
    await tx`insert into ${tx(t('system_config'))} (key, value, mailing_list_address, updated_by, updated_at)
      values ('email-notification-mode', ${d.mode}, ${d.mailingListAddress}, ${event.metadata.actorId}, ${d.at})
      on conflict (key) do update set value = excluded.value, mailing_list_address = excluded.mailing_list_address,
        updated_by = excluded.updated_by, updated_at = excluded.updated_at`;
  },
};
