import { describe, it } from 'vitest';
import { adminActor, developerActor, given, superAdminActor } from '../testing/specification';
import { now, STAMP } from '../testing/user-fixtures';
import { residenceDecider } from './residence';

const as = (actor = superAdminActor()) => ({ actor, now });
const created = {
  type: 'ResidenceCreated' as const,
  data: { residenceId: 'r1', name: 'Maple House', description: null, address: null, at: STAMP },
};

describe('residences', () => {
  it('creates with a trimmed name', () => {
    given(residenceDecider)
      .when(
        {
          type: 'CreateResidence',
          data: { residenceId: 'r1', name: '  Maple House ', description: '', address: null },
        },
        as(),
      )
      .thenEmits([created]);
  });

  it('refuses a blank name with the product guide’s message', () => {
    given(residenceDecider)
      .when(
        {
          type: 'CreateResidence',
          data: { residenceId: 'r1', name: '   ', description: null, address: null },
        },
        as(),
      )
      .thenRejects('invalid', 'Residence name is required');
  });

  it('only super admins and developers manage residences', () => {
    given(residenceDecider)
      .when(
        {
          type: 'CreateResidence',
          data: { residenceId: 'r1', name: 'Oak', description: null, address: null },
        },
        as(adminActor()),
      )
      .thenRejects('forbidden');
  });

  it('updates, carrying the name so its reservation can move', () => {
    given(residenceDecider, [created])
      .when(
        {
          type: 'UpdateResidence',
          data: { residenceId: 'r1', name: 'Maple Lodge', description: 'Six beds', address: null },
        },
        as(developerActor()),
      )
      .thenEmits([
        {
          type: 'ResidenceUpdated',
          data: { residenceId: 'r1', name: 'Maple Lodge', description: 'Six beds', address: null, at: STAMP },
        },
      ]);
  });

  it('deletes once; a deleted or unknown residence is not found', () => {
    const deleted = {
      type: 'ResidenceDeleted' as const,
      data: { residenceId: 'r1', name: 'Maple House', at: STAMP },
    };
    given(residenceDecider, [created])
      .when({ type: 'DeleteResidence', data: { residenceId: 'r1' } }, as())
      .thenEmits([deleted]);
    given(residenceDecider, [created, deleted])
      .when({ type: 'DeleteResidence', data: { residenceId: 'r1' } }, as())
      .thenRejects('not_found');
    given(residenceDecider)
      .when({ type: 'DeleteResidence', data: { residenceId: 'r1' } }, as())
      .thenRejects('not_found');
  });
});
