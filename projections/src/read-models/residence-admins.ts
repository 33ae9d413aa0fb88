import type { Helper, PendingQuery, Row, Sql, TransactionSql } from 'postgres';

type Relation = Helper<string> | PendingQuery<Row[]>;

/**
 * The ids of the admins of the residence named `location`: those assigned to it, or every admin
 * when none is. `admins` is a table or parenthesised query of admins with columns (id,
 * residence_id); `residences` has (id, name). In-app notices and e-mails both ask this.
 */
export function adminsOfResidence(
  db: Sql | TransactionSql,
  admins: Relation,
  residences: Relation,
  location: string,
): PendingQuery<Row[]> {
  return db`
    select a.id from ${admins} a left join ${residences} r on r.id = a.residence_id
    where r.name = ${location} or not exists (
      select 1 from ${admins} x join ${residences} y on y.id = x.residence_id where y.name = ${location})`;
}
