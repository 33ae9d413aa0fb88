import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../shared/decider';
import { aShift } from '../testing/builders';
import {
  approved,
  at,
  before,
  claimed,
  dropRequested,
  posted,
  SHIFT_ID,
  stamp,
  transferRequested,
} from '../testing/shift-fixtures';
import {
  adminActor,
  developerActor,
  given,
  staffActor,
  superAdminActor,
  systemActor,
} from '../testing/specification';
import { shiftDecider } from './decide';
import type { ShiftEvent } from './events';
import type { ShiftCommand, ShiftDetails } from './schemas';

const ctx = (actor: CommandContext['actor'], now = before): CommandContext => ({ actor, now });
const admin = ctx(adminActor());
const staff = ctx(staffActor('staff-1'));
const colleague = ctx(staffActor('staff-2'));
const shift = { shiftId: SHIFT_ID };
const post = (overrides: Partial<ShiftDetails> = {}): ShiftCommand => ({
  type: 'PostShift',
  data: aShift({ shiftId: SHIFT_ID, ...overrides }),
});

describe('PostShift', () => {
  it('posts an open shift for an admin', () => {
    given(shiftDecider).when(post(), admin).thenEmits([posted()]);
  });

  it.each([developerActor(), superAdminActor()])('lets a developer or super admin post too', (actor) => {
    given(shiftDecider)
      .when(post(), ctx(actor))
      .thenEmits([posted({ createdById: actor.kind === 'user' ? actor.userId : '' })]);
  });

  it('refuses staff', () => {
    given(shiftDecider).when(post(), staff).thenRejects('forbidden');
  });

  it('refuses dates before today in Eastern time', () => {
    const lateEvening = at('2026-03-09', '23:30');
    given(shiftDecider)
      .when(post({ date: '2026-03-08' }), ctx(adminActor(), lateEvening))
      .thenRejects('invalid', 'Cannot schedule shifts for past dates');
    given(shiftDecider)
      .when(post({ date: '2026-03-09' }), ctx(adminActor(), lateEvening))
      .thenEmits([posted({ date: '2026-03-09', at: lateEvening.toISOString() })]);
  });

  it('refuses an overnight shift today that has already started, and accepts one still to come', () => {
    const evening = at('2026-03-10', '21:00');
    const overnight = { date: '2026-03-10', type: 'Overnight' as const, endTime: '07:00' };
    given(shiftDecider)
      .when(post({ ...overnight, startTime: '20:00' }), ctx(adminActor(), evening))
      .thenRejects('invalid', 'Cannot schedule overnight shifts that have already started');
    given(shiftDecider)
      .when(post({ ...overnight, startTime: '22:00' }), ctx(adminActor(), evening))
      .thenEmits([posted({ ...overnight, startTime: '22:00', at: evening.toISOString() })]);
  });

  it('refuses a blank location', () => {
    given(shiftDecider)
      .when(post({ location: '  ' }), admin)
      .thenRejects('invalid', 'Location is required to create a shift');
  });

  it('refuses posting the same shift twice', () => {
    given(shiftDecider, [posted()]).when(post(), admin).thenRejects('already_exists');
  });
});

describe('UpdateShift and DeleteShift', () => {
  const update = (overrides: Partial<ShiftDetails> = {}): ShiftCommand => ({
    type: 'UpdateShift',
    data: aShift({ shiftId: SHIFT_ID, ...overrides }),
  });

  it('updates the details', () => {
    given(shiftDecider, [posted()])
      .when(update({ notes: 'Bring keys', status: 'urgent' }), admin)
      .thenEmits([
        {
          type: 'ShiftUpdated',
          data: {
            ...posted().data,
            notes: 'Bring keys',
            priority: 'urgent',
            createdById: undefined,
            at: stamp,
          } as never,
        },
      ]);
  });

  it('refuses moving a shift into the past, and staff editing', () => {
    given(shiftDecider, [posted()])
      .when(update({ date: '2026-02-01' }), admin)
      .thenRejects('invalid');
    given(shiftDecider, [posted()]).when(update(), staff).thenRejects('forbidden');
  });

  it('refuses unknown shifts', () => {
    given(shiftDecider).when(update(), admin).thenRejects('not_found');
  });

  it('deletes, naming the assignee so their schedule is freed', () => {
    given(shiftDecider, [posted(), claimed()])
      .when({ type: 'DeleteShift', data: shift }, admin)
      .thenEmits([
        { type: 'ShiftDeleted', data: { shiftId: SHIFT_ID, assignedUserId: 'staff-1', at: stamp } },
      ]);
  });

  it('refuses staff deleting, and anything on a deleted shift', () => {
    given(shiftDecider, [posted()])
      .when({ type: 'DeleteShift', data: shift }, staff)
      .thenRejects('forbidden');
    const deleted = {
      type: 'ShiftDeleted' as const,
      data: { shiftId: SHIFT_ID, assignedUserId: null, at: stamp },
    };
    given(shiftDecider, [posted(), deleted])
      .when({ type: 'ClaimShift', data: shift }, staff)
      .thenRejects('not_found');
  });
});

describe('ClaimShift, ApproveClaim, DenyClaim', () => {
  it('a claim makes the shift pending approval with the claimant as assignee', () => {
    const state = given(shiftDecider, [posted()])
      .when({ type: 'ClaimShift', data: shift }, staff)
      .thenEmits([claimed()]);
    expect(state).toMatchObject({
      status: 'pending',
      assignedUserId: 'staff-1',
      needsApproval: true,
      approved: false,
    });
  });

  it('urgent and emergency shifts are claimable too', () => {
    given(shiftDecider, [posted({ priority: 'emergency' })])
      .when({ type: 'ClaimShift', data: shift }, staff)
      .thenEmits([claimed()]);
  });

  it('refuses a shift someone already holds', () => {
    given(shiftDecider, [posted(), claimed('staff-2')])
      .when({ type: 'ClaimShift', data: shift }, staff)
      .thenRejects('not_claimable');
  });

  it('refuses a shift that has ended', () => {
    given(shiftDecider, [posted()])
      .when({ type: 'ClaimShift', data: shift }, ctx(staffActor(), at('2026-03-10', '16:00')))
      .thenRejects('shift_started');
  });

  it('approval sets approved and clears needsApproval', () => {
    const state = given(shiftDecider, [posted(), claimed()])
      .when({ type: 'ApproveClaim', data: shift }, admin)
      .thenEmits([approved()]);
    expect(state).toMatchObject({ status: 'approved', approved: true, needsApproval: false });
  });

  it('denial puts the shift back, unassigned, at its priority', () => {
    const state = given(shiftDecider, [posted({ priority: 'urgent' }), claimed()])
      .when({ type: 'DenyClaim', data: shift }, admin)
      .thenEmits([{ type: 'ClaimDenied', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } }]);
    expect(state).toMatchObject({
      status: 'urgent',
      assignedUserId: null,
      needsApproval: false,
      approved: false,
    });
  });

  it('refuses approving or denying without a pending claim, and staff approving', () => {
    given(shiftDecider, [posted()])
      .when({ type: 'ApproveClaim', data: shift }, admin)
      .thenRejects('not_pending');
    given(shiftDecider, [posted(), claimed(), approved()])
      .when({ type: 'DenyClaim', data: shift }, admin)
      .thenRejects('not_pending');
    given(shiftDecider, [posted(), claimed()])
      .when({ type: 'ApproveClaim', data: shift }, staff)
      .thenRejects('forbidden');
  });
});

describe('AssignShift', () => {
  const assign = (staffId: string, assigneeRole: 'staff' | 'admin' = 'staff'): ShiftCommand => ({
    type: 'AssignShift',
    data: { shiftId: SHIFT_ID, staffId, assigneeRole },
  });

  it('assigns a staff member directly, approved', () => {
    const state = given(shiftDecider, [posted()])
      .when(assign('staff-3'), admin)
      .thenEmits([
        {
          type: 'ShiftAssigned',
          data: { shiftId: SHIFT_ID, userId: 'staff-3', previousUserId: null, at: stamp },
        },
      ]);
    expect(state).toMatchObject({ status: 'approved', assignedUserId: 'staff-3', approved: true });
  });

  it('reassigns, naming the previous assignee', () => {
    given(shiftDecider, [posted(), claimed()])
      .when(assign('staff-3'), admin)
      .thenEmits([
        {
          type: 'ShiftAssigned',
          data: { shiftId: SHIFT_ID, userId: 'staff-3', previousUserId: 'staff-1', at: stamp },
        },
      ]);
  });

  it('refuses non-staff assignees and staff assigning', () => {
    given(shiftDecider, [posted()]).when(assign('admin-2', 'admin'), admin).thenRejects('invalid_recipient');
    given(shiftDecider, [posted()]).when(assign('staff-3'), staff).thenRejects('forbidden');
  });
});

describe('RequestDrop, ApproveDrop, DenyDrop', () => {
  const holding = [posted(), claimed(), approved()];
  const requestDrop: ShiftCommand = { type: 'RequestDrop', data: shift };

  it('the assignee asks to drop with enough notice', () => {
    const state = given(shiftDecider, holding).when(requestDrop, staff).thenEmits([dropRequested()]);
    expect(state.dropRequested).toBe(true);
  });

  it('exactly 4 hours before the start is still enough notice', () => {
    given(shiftDecider, holding)
      .when(requestDrop, ctx(staffActor(), at('2026-03-10', '04:00')))
      .thenEmits([
        {
          type: 'DropRequested',
          data: { shiftId: SHIFT_ID, userId: 'staff-1', at: at('2026-03-10', '04:00').toISOString() },
        },
      ]);
  });

  it('under 4 hours before the start: insufficient_notice', () => {
    given(shiftDecider, holding)
      .when(requestDrop, ctx(staffActor(), at('2026-03-10', '04:01')))
      .thenRejects('insufficient_notice', /less than 4 hours/);
  });

  it('once started: shift_started', () => {
    given(shiftDecider, holding)
      .when(requestDrop, ctx(staffActor(), at('2026-03-10', '09:00')))
      .thenRejects('shift_started', /already started/);
  });

  it('refuses someone who does not hold the shift, and a second request', () => {
    given(shiftDecider, holding).when(requestDrop, colleague).thenRejects('not_assignee');
    given(shiftDecider, [...holding, dropRequested()])
      .when(requestDrop, staff)
      .thenRejects('drop_already_requested');
  });

  it('approval opens the shift to others again', () => {
    const state = given(shiftDecider, [...holding, dropRequested()])
      .when({ type: 'ApproveDrop', data: shift }, admin)
      .thenEmits([{ type: 'DropApproved', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } }]);
    expect(state).toMatchObject({
      status: 'open',
      assignedUserId: null,
      dropRequested: false,
      dropApproved: true,
    });
  });

  it('denial keeps the assignee', () => {
    const state = given(shiftDecider, [...holding, dropRequested()])
      .when({ type: 'DenyDrop', data: shift }, admin)
      .thenEmits([{ type: 'DropDenied', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } }]);
    expect(state).toMatchObject({ status: 'approved', assignedUserId: 'staff-1', dropRequested: false });
  });

  it('refuses deciding a drop nobody asked for, and staff deciding', () => {
    given(shiftDecider, holding)
      .when({ type: 'ApproveDrop', data: shift }, admin)
      .thenRejects('drop_not_requested');
    given(shiftDecider, [...holding, dropRequested()])
      .when({ type: 'DenyDrop', data: shift }, staff)
      .thenRejects('forbidden');
  });
});

describe('transfers', () => {
  const holding = [posted(), claimed(), approved()];
  const request = (
    toUserId = 'staff-2',
    recipientRole: 'staff' | 'admin' | 'developer' = 'staff',
  ): ShiftCommand => ({
    type: 'RequestTransfer',
    data: { shiftId: SHIFT_ID, transferId: 't-1', toUserId, recipientRole, message: null },
  });
  const respond = (type: 'AcceptTransfer' | 'DeclineTransfer' | 'CancelTransfer'): ShiftCommand => ({
    type,
    data: { shiftId: SHIFT_ID, transferId: 't-1' },
  });
  const transfer = {
    shiftId: SHIFT_ID,
    transferId: 't-1',
    fromUserId: 'staff-1',
    toUserId: 'staff-2',
    at: stamp,
  };

  it('the assignee of an approved shift offers it to a colleague or an admin', () => {
    given(shiftDecider, holding).when(request(), staff).thenEmits([transferRequested()]);
    given(shiftDecider, holding)
      .when(request('admin-1', 'admin'), staff)
      .thenEmits([transferRequested('staff-1', 'admin-1')]);
  });

  it('refuses: not the assignee, not yet approved, oneself, a developer, a second pending one', () => {
    given(shiftDecider, holding).when(request(), colleague).thenRejects('not_assignee');
    given(shiftDecider, [posted(), claimed()]).when(request(), staff).thenRejects('not_approved');
    given(shiftDecider, holding).when(request('staff-1'), staff).thenRejects('invalid_recipient');
    given(shiftDecider, holding).when(request('dev-1', 'developer'), staff).thenRejects('invalid_recipient');
    given(shiftDecider, [...holding, transferRequested()])
      .when(
        { ...request('staff-3'), data: { ...request('staff-3').data, transferId: 't-2' } } as ShiftCommand,
        staff,
      )
      .thenRejects('transfer_pending');
  });

  it('the recipient accepts and becomes the assignee', () => {
    const state = given(shiftDecider, [...holding, transferRequested()])
      .when(respond('AcceptTransfer'), colleague)
      .thenEmits([{ type: 'TransferAccepted', data: transfer }]);
    expect(state).toMatchObject({ assignedUserId: 'staff-2', approved: true, status: 'approved' });
  });

  it('the recipient declines and the sender keeps the shift', () => {
    const state = given(shiftDecider, [...holding, transferRequested()])
      .when(respond('DeclineTransfer'), colleague)
      .thenEmits([{ type: 'TransferDeclined', data: transfer }]);
    expect(state.assignedUserId).toBe('staff-1');
  });

  it('the sender cancels', () => {
    given(shiftDecider, [...holding, transferRequested()])
      .when(respond('CancelTransfer'), staff)
      .thenEmits([{ type: 'TransferCancelled', data: transfer }]);
  });

  it('refuses answers from the wrong person and answers to an answered request', () => {
    given(shiftDecider, [...holding, transferRequested()])
      .when(respond('AcceptTransfer'), staff)
      .thenRejects('not_recipient');
    given(shiftDecider, [...holding, transferRequested()])
      .when(respond('CancelTransfer'), colleague)
      .thenRejects('not_sender');
    given(shiftDecider, [...holding, transferRequested(), { type: 'TransferDeclined', data: transfer }])
      .when(respond('AcceptTransfer'), colleague)
      .thenRejects('transfer_not_pending');
    given(shiftDecider, holding).when(respond('AcceptTransfer'), colleague).thenRejects('not_found');
  });

  it('refuses transfers of a shift that has started, offered or accepted', () => {
    const started = ctx(staffActor('staff-1'), at('2026-03-10', '09:00'));
    given(shiftDecider, holding).when(request(), started).thenRejects('shift_started');
    given(shiftDecider, [...holding, transferRequested()])
      .when(respond('AcceptTransfer'), ctx(staffActor('staff-2'), at('2026-03-10', '09:00')))
      .thenRejects('shift_started');
  });

  it('an approved drop cancels the pending transfer', () => {
    given(shiftDecider, [...holding, transferRequested(), dropRequested()])
      .when({ type: 'ApproveDrop', data: shift }, admin)
      .thenEmits([
        { type: 'TransferCancelled', data: transfer },
        { type: 'DropApproved', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } },
      ]);
  });
});

describe('MarkUrgent, CompleteShift, ExpireShift', () => {
  const holding = [posted(), claimed(), approved()];
  const afterEnd = (time: string) => ctx(systemActor, at('2026-03-10', time));

  it('marks an open shift urgent', () => {
    const state = given(shiftDecider, [posted()])
      .when({ type: 'MarkUrgent', data: { shiftId: SHIFT_ID, priority: 'urgent' } }, admin)
      .thenEmits([{ type: 'ShiftMarkedUrgent', data: { shiftId: SHIFT_ID, priority: 'urgent', at: stamp } }]);
    expect(state.status).toBe('urgent');
    given(shiftDecider, [posted()])
      .when({ type: 'MarkUrgent', data: { shiftId: SHIFT_ID, priority: 'urgent' } }, staff)
      .thenRejects('forbidden');
  });

  it('completes from 1 hour after the end, recording minutes worked', () => {
    const now = at('2026-03-10', '17:00');
    const state = given(shiftDecider, holding)
      .when({ type: 'CompleteShift', data: shift }, ctx(systemActor, now))
      .thenEmits([
        {
          type: 'ShiftCompleted',
          data: { shiftId: SHIFT_ID, userId: 'staff-1', hoursWorked: 480, at: now.toISOString() },
        },
      ]);
    expect(state.status).toBe('completed');
  });

  it('refuses to complete too early, or an unfilled shift', () => {
    given(shiftDecider, holding)
      .when({ type: 'CompleteShift', data: shift }, afterEnd('16:59'))
      .thenRejects('too_early_to_complete');
    given(shiftDecider, [posted()])
      .when({ type: 'CompleteShift', data: shift }, afterEnd('18:00'))
      .thenRejects('not_approved');
  });

  it('completes an overnight shift 1 hour after its end on the next day', () => {
    const overnight = posted({ startTime: '22:00', endTime: '06:00', type: 'Overnight' });
    const history = [overnight, claimed(), approved()];
    const complete: ShiftCommand = { type: 'CompleteShift', data: shift };
    given(shiftDecider, history)
      .when(complete, ctx(systemActor, at('2026-03-11', '06:59')))
      .thenRejects('too_early_to_complete');
    const now = at('2026-03-11', '07:00');
    given(shiftDecider, history)
      .when(complete, ctx(systemActor, now))
      .thenEmits([
        {
          type: 'ShiftCompleted',
          data: { shiftId: SHIFT_ID, userId: 'staff-1', hoursWorked: 480, at: now.toISOString() },
        },
      ]);
  });

  it('a completed shift never changes again', () => {
    const completed = [
      ...holding,
      {
        type: 'ShiftCompleted' as const,
        data: { shiftId: SHIFT_ID, userId: 'staff-1', hoursWorked: 480, at: stamp },
      },
    ];
    for (const command of [
      { type: 'DeleteShift', data: shift },
      { type: 'RequestDrop', data: shift },
      { type: 'CompleteShift', data: shift },
      { type: 'MarkUrgent', data: { shiftId: SHIFT_ID, priority: 'emergency' } },
    ] as ShiftCommand[]) {
      given(shiftDecider, completed).when(command, afterEnd('20:00')).thenRejects('already_completed');
    }
  });

  it('expires an unfilled shift once it has ended, freeing a pending claimant', () => {
    const now = at('2026-03-10', '16:00');
    given(shiftDecider, [posted(), claimed()])
      .when({ type: 'ExpireShift', data: shift }, ctx(systemActor, now))
      .thenEmits([
        {
          type: 'ShiftExpired',
          data: { shiftId: SHIFT_ID, pendingUserId: 'staff-1', at: now.toISOString() },
        },
      ]);
  });

  it('refuses to expire a filled shift or one not yet ended', () => {
    given(shiftDecider, holding)
      .when({ type: 'ExpireShift', data: shift }, afterEnd('20:00'))
      .thenRejects('already_exists');
    given(shiftDecider, [posted()])
      .when({ type: 'ExpireShift', data: shift }, afterEnd('15:59'))
      .thenRejects('not_ended');
  });
});

describe('RemindHolder', () => {
  const remind: ShiftCommand = { type: 'RemindHolder', data: shift };
  const soon = ctx(systemActor, at('2026-03-09', '20:00'));
  const reminded = (userId = 'staff-1', now = soon.now): ShiftEvent => ({
    type: 'HolderReminded',
    data: { shiftId: SHIFT_ID, userId, at: now.toISOString() },
  });

  it('reminds the holder of an approved shift, once', () => {
    given(shiftDecider, [posted(), claimed(), approved()]).when(remind, soon).thenEmits([reminded()]);
    given(shiftDecider, [posted(), claimed(), approved(), reminded()]).when(remind, soon).thenEmits([]);
  });

  it('reminds a new holder after a transfer, too', () => {
    const accepted: ShiftEvent = {
      type: 'TransferAccepted',
      data: { shiftId: SHIFT_ID, transferId: 't-1', fromUserId: 'staff-1', toUserId: 'staff-2', at: stamp },
    };
    given(shiftDecider, [posted(), claimed(), approved(), reminded(), transferRequested(), accepted])
      .when(remind, soon)
      .thenEmits([reminded('staff-2')]);
  });

  it('has nobody to remind on an unapproved shift, and nothing to say once it started', () => {
    given(shiftDecider, [posted(), claimed()]).when(remind, soon).thenRejects('not_approved');
    given(shiftDecider, [posted(), claimed(), approved()])
      .when(remind, ctx(systemActor, at('2026-03-10', '08:00')))
      .thenRejects('shift_started');
  });
});

describe('test shifts of the e-mail bulk test', () => {
  it('only developers post them, and their deletion says so', () => {
    const test = post();
    if (test.type === 'PostShift') test.data.testData = true;
    given(shiftDecider).when(test, admin).thenRejects('forbidden');
    given(shiftDecider)
      .when(test, ctx(developerActor()))
      .thenEmits([posted({ createdById: 'dev-1', testData: true })]);
    given(shiftDecider, [posted({ testData: true })])
      .when({ type: 'DeleteShift', data: shift }, ctx(developerActor()))
      .thenEmits([
        {
          type: 'ShiftDeleted',
          data: { shiftId: SHIFT_ID, assignedUserId: null, testData: true, at: stamp },
        },
      ]);
  });
});

describe('ReleaseHolder (the holder’s account was deleted)', () => {
  const release = (userId = 'staff-1'): ShiftCommand => ({
    type: 'ReleaseHolder',
    data: { ...shift, userId },
  });
  const removed = (now: Date, userId = 'staff-1'): ShiftEvent => ({
    type: 'HolderRemoved',
    data: { shiftId: SHIFT_ID, userId, at: now.toISOString() },
  });
  const cancelled = (now: Date): ShiftEvent => ({
    type: 'TransferCancelled',
    data: {
      shiftId: SHIFT_ID,
      transferId: 't-1',
      fromUserId: 'staff-1',
      toUserId: 'staff-2',
      at: now.toISOString(),
    },
  });
  const weekBefore = ctx(adminActor(), at('2026-03-03', '08:00'));
  const dayBefore = ctx(adminActor(), at('2026-03-09', '08:00'));

  it('reopens an approved or claimed shift a week ahead, as it was posted', () => {
    given(shiftDecider, [posted(), claimed(), approved()])
      .when(release(), weekBefore)
      .thenEmits([removed(weekBefore.now)]);
    given(shiftDecider, [posted(), claimed()])
      .when(release(), weekBefore)
      .thenEmits([removed(weekBefore.now)]);
  });

  it('marks it urgent when it starts within 48 hours, unless it already is urgent or emergency', () => {
    given(shiftDecider, [posted(), claimed(), approved()])
      .when(release(), dayBefore)
      .thenEmits([
        removed(dayBefore.now),
        {
          type: 'ShiftMarkedUrgent',
          data: { shiftId: SHIFT_ID, priority: 'urgent', at: dayBefore.now.toISOString() },
        },
      ]);
    given(shiftDecider, [posted({ priority: 'emergency' }), claimed(), approved()])
      .when(release(), dayBefore)
      .thenEmits([removed(dayBefore.now)]);
  });

  it('ends a transfer they offered, and one offered to them', () => {
    given(shiftDecider, [posted(), claimed(), approved(), transferRequested()])
      .when(release('staff-1'), weekBefore)
      .thenEmits([cancelled(weekBefore.now), removed(weekBefore.now)]);
    given(shiftDecider, [posted(), claimed(), approved(), transferRequested()])
      .when(release('staff-2'), weekBefore)
      .thenEmits([cancelled(weekBefore.now)]);
  });

  it('leaves shifts that have started, and shifts that are not theirs', () => {
    given(shiftDecider, [posted(), claimed(), approved()])
      .when(release(), ctx(adminActor(), at('2026-03-10', '09:00')))
      .thenEmits([]);
    given(shiftDecider, [posted(), claimed('staff-3'), approved('staff-3')])
      .when(release(), weekBefore)
      .thenEmits([]);
  });

  it('is for those who manage users', () => {
    given(shiftDecider, [posted(), claimed(), approved()])
      .when(release(), colleague)
      .thenRejects('forbidden');
  });
});
