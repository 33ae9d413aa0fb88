import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminsOfResidence } from './residence-admins';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = postgres(db.url, { max: 1, onnotice: () => {} });
  await sql`create table admins (id text primary key, residence_id text)`;
  await sql`create table residences (id text primary key, name text not null)`;
  await sql`insert into residences values ('r1', 'Maple House'), ('r2', 'Oak Lodge'), ('r3', 'Pine Court')`;
  await sql`insert into admins values ('maple', 'r1'), ('oak', 'r2'), ('floating', null)`;
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

const adminsOf = async (location: string) =>
  (await adminsOfResidence(sql, sql('admins'), sql('residences'), location)).map((r) => r.id).sort();

describe('the admins of a residence', () => {
  it('are the admins assigned to it', async () => {
    expect(await adminsOf('Maple House')).toEqual(['maple']);
  });

  it('are every admin when nobody is assigned to it', async () => {
    expect(await adminsOf('Pine Court')).toEqual(['floating', 'maple', 'oak']);
    expect(await adminsOf('Day Program')).toEqual(['floating', 'maple', 'oak']);
  });

  it('can be read from a query as well as a table', async () => {
    const fromQuery = await adminsOfResidence(
      sql,
      sql`(select id, residence_id from admins where id <> 'maple')`,
      sql('residences'),
      'Maple House',
    );
    expect(fromQuery.map((r) => r.id).sort()).toEqual(['floating', 'oak']);
  });
});
