import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './port';
import { type Upcaster, upcast } from './upcasting';

const stored = (schemaVersion: number, data: Record<string, unknown>): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'ShiftPosted',
  data,
  metadata: {
    commandId: 'c',
    correlationId: 'c',
    causationId: 'c',
    actorId: 'u',
    actorRole: 'admin',
    schemaVersion,
  },
  streamId: 'shift-1',
  revision: 0n,
  position: 1n,
  recordedAt: new Date('2026-01-01T00:00:00Z'),
});

const upcasters: Upcaster[] = [
  {
    type: 'ShiftPosted',
    fromVersion: 1,
    upcast: ({ residence, ...rest }) => ({ ...rest, location: residence }),
  },
  {
    type: 'ShiftPosted',
    fromVersion: 2,
    upcast: (data) => ({ ...data, requirements: data.requirements ?? null }),
  },
];

describe('upcasting', () => {
  it('brings an old event through every step to the current shape', () => {
    const event = upcast(stored(1, { residence: 'Maple House' }), upcasters);
    expect(event.data).toEqual({ location: 'Maple House', requirements: null });
    expect(event.metadata.schemaVersion).toBe(3);
  });

  it('starts from the stored version', () => {
    const event = upcast(stored(2, { location: 'Oak Lodge', requirements: 'CPR' }), upcasters);
    expect(event.data).toEqual({ location: 'Oak Lodge', requirements: 'CPR' });
  });

  it('leaves current events untouched', () => {
    const current = stored(3, { location: 'Oak Lodge' });
    expect(upcast(current, upcasters)).toBe(current);
  });
});
