import { isClaimable } from '@shiftcover/domain';
import { postgresAt } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimableSql } from './shift-queries';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = postgresAt(db.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

const statuses = ['open', 'urgent', 'emergency', 'pending', 'approved', 'completed', 'expired'];
const cases = statuses.flatMap((status) => [
  { assignedUserId: null, status },
  { assignedUserId: 'u1', status },
]);

describe('claimable in SQL', () => {
  it('agrees with the domain on every status, held or not', async () => {
    const rows = await sql<{ claimable: boolean }[]>`
      select ${claimableSql(sql)} as claimable
      from unnest(${cases.map((c) => c.assignedUserId)}::text[], ${cases.map((c) => c.status)}::text[])
        with ordinality as s(assigned_user_id, status, n)
      order by s.n`;
    expect(rows.map((r) => r.claimable)).toEqual(cases.map((c) => isClaimable(c)));
  });
});
