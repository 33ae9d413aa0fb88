import { isClaimable, type Principal } from '@shiftcover/domain';
import { describe, expect, it } from 'vitest';
import { aShift } from '../admin/shift-fixture';
import { cardActions } from './card-actions';

const staff: Principal = { userId: 'u1', role: 'staff', superAdmin: false };
const admin: Principal = { userId: 'a1', role: 'admin', superAdmin: false };
const mine = { assignedUserId: 'u1', assignedUser: { id: 'u1', firstName: 'Alex', lastName: 'Rivera' } };

describe('shift card actions', () => {
  it('offers Claim Shift only on unassigned open, urgent or emergency shifts', () => {
    expect(isClaimable(aShift())).toBe(true);
    expect(isClaimable(aShift({ status: 'emergency', priority: 'emergency' }))).toBe(true);
    expect(isClaimable(aShift({ status: 'pending', ...mine }))).toBe(false);
    expect(isClaimable(aShift({ status: 'approved', ...mine }))).toBe(false);
  });

  it('gives staff no admin buttons', () => {
    expect(cardActions(aShift(), staff)).toEqual({
      claim: true,
      requestTransfer: false,
      cancelTransfer: false,
      assign: false,
      edit: false,
      delete: false,
    });
  });

  it('offers Request Transfer on the holder’s approved shift, Cancel once a request is pending', () => {
    const approved = aShift({ status: 'approved', approved: true, ...mine });
    expect(cardActions(approved, staff)).toMatchObject({ requestTransfer: true, cancelTransfer: false });
    expect(cardActions({ ...approved, transferRequested: true }, staff)).toMatchObject({
      requestTransfer: false,
      cancelTransfer: true,
    });
    expect(cardActions(aShift({ status: 'pending', ...mine }), staff).requestTransfer).toBe(false);
    expect(cardActions({ ...approved, dropRequested: true }, staff).requestTransfer).toBe(false);
    expect(cardActions(approved, { ...staff, userId: 'someone-else' }).requestTransfer).toBe(false);
  });

  it('lets administrators assign, edit and delete; completed shifts can only be deleted', () => {
    expect(cardActions(aShift(), admin)).toMatchObject({ assign: true, edit: true, delete: true });
    expect(cardActions(aShift({ status: 'completed' }), admin)).toMatchObject({
      claim: false,
      assign: false,
      edit: false,
      delete: true,
    });
  });
});
