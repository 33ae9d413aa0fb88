import type { Migration } from '@shiftcover/platform';

export const projectionMigrations: Migration[] = [
  {
    id: '001-projection-checkpoints',
    up: `create table projection_checkpoints (
      name text primary key,
      generation int not null,
      version int not null,
      position bigint not null default 0,
      updated_at timestamptz not null default now()
    );`,
  },
];

export interface Checkpoint {
  name: string;
  generation: number;
  version: number;
  position: bigint;
  updatedAt: Date;
}
