import type { EventData, Projection } from '../projection';

export const residencesProjection: Projection = {
  name: 'residences',
  awaitedByWriters: true,
  version: 1,
  tables: ['residences'],
  schema: (t) => `
    create table ${t('residences')} (
      id text primary key,
      name text not null,
      description text,
      address text,
      is_active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );`,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const residences = tx(t('residences'));
    switch (event.type) {
      case 'ResidenceCreated':
        await tx`insert into ${residences} (id, name, description, address, created_at, updated_at)
          values (${d.residenceId}, ${d.name}, ${d.description}, ${d.address}, ${d.at}, ${d.at})`;
        return;
      case 'ResidenceUpdated':
        await tx`update ${residences} set name = ${d.name}, description = ${d.description}, address = ${d.address},
            updated_at = ${d.at} where id = ${d.residenceId}`;
        return;
      case 'ResidenceDeleted':
        await tx`delete from ${residences} where id = ${d.residenceId}`;
        return;
    }
  },
};
