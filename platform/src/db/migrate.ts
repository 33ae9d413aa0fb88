import type { Sql } from 'postgres';

export interface Migration {
  id: string;
  up: string;
}

/**
 * Applies each migration of a component once, in order, recorded in `schema_migrations`. An
 * advisory lock keeps concurrent starters (several processes, parallel tests) from racing.
 */
export async function migrate(sql: Sql, component: string, migrations: Migration[]): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('schema_migrations'))`;
    await tx`
      create table if not exists schema_migrations (
        component text not null,
        id text not null,
        applied_at timestamptz not null default now(),
        primary key (component, id)
      )`;
    const applied = await tx<
      { id: string }[]
    >`select id from schema_migrations where component = ${component}`;
    const done = new Set(applied.map((row) => row.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await tx.unsafe(migration.up);
      await tx`insert into schema_migrations (component, id) values (${component}, ${migration.id})`;
    }
  });
}
