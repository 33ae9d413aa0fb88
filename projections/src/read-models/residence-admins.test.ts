import { openBench, perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminsOfResidence } from './residence-admins';

const bench = perFile(() => openBench(1));

beforeAll(async () => {
  const { sql } = bench;
  await sql`create table admins (id text primary key, residence_id text)`;
  await sql`create table residences (id text primary key, name text not null)`;
  await sql`insert into residences values ('r1', 'Maple House'), ('r2', 'Oak Lodge'), ('r3', 'Pine Court')`;
  await sql`insert into admins values ('maple', 'r1'), ('oak', 'r2'), ('floating', null)`;
});

const adminsOf = async (location: string) => {
  const { sql } = bench;
  return (await adminsOfResidence(sql, sql('admins'), sql('residences'), location)).map((r) => r.id).sort();
};

describe('the admins of a residence', () => {
  it('are the admins assigned to it', async () => {
    expect(await adminsOf('Maple House')).toEqual(['maple']);
  });

  it('are every admin when nobody is assigned to it', async () => {
    expect(await adminsOf('Pine Court')).toEqual(['floating', 'maple', 'oak']);
    expect(await adminsOf('Day Program')).toEqual(['floating', 'maple', 'oak']);
  });

  it('can be read from a query as well as a table', async () => {
    const { sql } = bench;
    const fromQuery = await adminsOfResidence(
      sql,
      sql`(select id, residence_id from admins where id <> 'maple')`,
      sql('residences'),
      'Maple House',
    );
    expect(fromQuery.map((r) => r.id).sort()).toEqual(['floating', 'oak']);
  });
});
