import {
  acknowledged,
  answers,
  entityId,
  listedName,
  pickedId,
  ruleOverrideSchema,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftState,
  shiftDetailsSchema,
  transferAnswer,
  transferRequestSchema,
  userDecider,
  writtenShiftViewSchema,
} from '@shiftcover/domain';
import type { ReadAhead } from '@shiftcover/eventstore';
import {
  type Caller,
  caller,
  commandContext,
  commandTrace,
  HttpError,
  idParams,
  newId,
  requireCapability,
  written,
} from '@shiftcover/platform';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { streams } from '../streams';
import type { CommandApiDeps } from './context';

const assignBody = z.object({
  staffId: pickedId('No Staff Selected'),
  override: ruleOverrideSchema.optional(),
});
// The edit dialog sends an empty string when nobody is picked.
const updateBody = shiftDetailsSchema.extend({ assignedUserId: z.literal('').or(entityId).nullish() });
// The create dialog also sends the approval flags; a new shift always starts unclaimed.
const createBody = shiftDetailsSchema.extend({
  needsApproval: z.boolean().optional(),
  approved: z.boolean().optional(),
});
const respondBody = z.object({
  status: z.enum(['accepted', 'declined'], { error: 'Status must be accepted or declined' }),
});

/** A shift as the screens read it (docs/product.md §3 shifts). */
export function shiftView(shift: ShiftState) {
  return {
    id: shift.shiftId,
    location: shift.location,
    date: shift.date,
    startTime: shift.startTime,
    endTime: shift.endTime,
    type: shift.type,
    requirements: shift.requirements,
    notes: shift.notes,
    requiredCredentials: shift.requiredCredentials,
    status: shift.status,
    assignedUserId: shift.assignedUserId,
    createdById: shift.createdById,
    needsApproval: shift.needsApproval,
    approved: shift.approved,
    dropRequested: shift.dropRequested,
    dropRequestedAt: shift.dropRequestedAt,
    dropApproved: shift.dropApproved,
    createdAt: shift.createdAt,
    updatedAt: shift.updatedAt,
  };
}

/**
 * Transfer request ids name their shift, `<shiftId>.<n>`: the shift's id, or undefined for an id of
 * no transfer.
 */
function shiftOfTransfer(id: string): string | undefined {
  const dot = id.lastIndexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

function transferRef(id: string) {
  const shiftId = shiftOfTransfer(id);
  if (!shiftId) throw new HttpError(404, 'Transfer request not found');
  return { shiftId, transferId: id };
}

export const shiftRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { handler, service, principals } = deps;

  /**
   * The reads of a command that gives someone a shift (the shift, the working-time rules), begun
   * before the check of who is calling so that they travel beside it: it always reads the shift, as
   * its reservation is decided on the shift as read (docs/architecture.md §3.2).
   */
  function readAhead(
    request: FastifyRequest,
    type: ShiftCommand['type'],
    shiftId: string | undefined,
  ): ReadAhead | undefined {
    return request.session && shiftId ? service.readAhead(type, shiftId) : undefined;
  }

  async function run(request: FastifyRequest, who: Caller, command: ShiftCommand, readAhead?: ReadAhead) {
    const outcome = await service.shift(command, commandContext(who.actor, deps), {
      ...commandTrace(request, who.actor),
      readAhead,
    });
    return { outcome, shift: shiftView(outcome.shift) };
  }

  async function roleOf(userId: string) {
    const { state } = await handler.load(streams.user(userId), userDecider);
    if (state.status !== 'active') throw new HttpError(404, 'User not found');
    return state.role;
  }

  /** The shift's required credentials in the list's spelling; a name not on the list is a 400. */
  async function listedCredentials<Details extends { requiredCredentials?: string[] }>(details: Details) {
    const names = details.requiredCredentials ?? [];
    if (names.length === 0) return details;
    const list = { types: await service.safety.typeList() };
    const listed = names.map((name) => {
      const found = listedName(list, name);
      if (!found) throw new HttpError(400, `${name} is not on the list of credentials`);
      return found;
    });
    return { ...details, requiredCredentials: listed };
  }

  const messageOf = (events: ShiftEvent[], fallback: string) =>
    events.length ? fallback : 'Nothing to change';

  const newShiftSchema = {
    tags: ['shifts'],
    summary: 'Post a shift',
    description:
      'Administrators post an open shift at a residence or the Day Program, at the priority they choose. Answers the shift (201); a date before today in Eastern time, or an overnight shift that has already started, is refused (400).',
    body: createBody,
    response: answers(writtenShiftViewSchema, 201),
  };
  app.post('/api/shifts', { schema: newShiftSchema }, async (request, reply) => {
    const who = await caller(request, principals);
    requireCapability(who, 'createShift');
    const trace = commandTrace(request, who.actor);
    const shiftId = newId(trace, 'shift');
    const { needsApproval: _n, approved: _a, ...body } = request.body;
    const details = await listedCredentials(body);
    const command: ShiftCommand = { type: 'PostShift', data: { ...details, shiftId } };
    const outcome = await service.shift(command, commandContext(who.actor, deps), trace);
    return written(reply, outcome.position, shiftView(outcome.shift), 201);
  });

  app.put(
    '/api/shifts/:id',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Edit a shift',
        description:
          "Administrators change a shift's details, and may assign it to a staff member in the same call (`assignedUserId`). Answers the shift and 'Shift updated successfully'; moving it in time checks the date rules of a new shift again.",
        params: idParams,
        body: updateBody,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'editShift');
      const { assignedUserId, ...body } = request.body;
      const details = await listedCredentials(body);
      let result = await run(request, who, {
        type: 'UpdateShift',
        data: { ...details, shiftId: request.params.id },
      });
      if (assignedUserId && assignedUserId !== result.shift.assignedUserId) {
        const assigneeRole = await roleOf(assignedUserId);
        result = await run(request, who, {
          type: 'AssignShift',
          data: { shiftId: request.params.id, staffId: assignedUserId, assigneeRole },
        });
      }
      return written(reply, result.outcome.position, {
        ...result.shift,
        message: 'Shift updated successfully',
      });
    },
  );

  app.delete(
    '/api/shifts/:id',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Delete a shift',
        description:
          "Administrators delete a shift: it leaves every list. Answers 'Shift deleted successfully'; an unknown shift is 404.",
        params: idParams,
        response: answers(acknowledged),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'deleteShift');
      const { outcome } = await run(request, who, {
        type: 'DeleteShift',
        data: { shiftId: request.params.id },
      });
      return written(reply, outcome.position, { message: 'Shift deleted successfully' });
    },
  );

  app.post(
    '/api/shifts/:id/claim',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Claim a shift',
        description:
          "Any signed-in user claims a shift that nobody holds and whose status is open, urgent or emergency: it becomes pending, with them as assignee, until an administrator approves. Answers the shift and 'Shift claimed successfully'; a shift no longer available, or one that overlaps a shift they hold or have claimed ('Scheduling conflict: …'), is refused (409), and a shift that has ended (422). A claim that breaks a safety rule of docs/product.md §10 is refused (422) with its code: `missing_credential`, `unavailable`, `rest_too_short`, `weekly_hours_exceeded` or `too_many_consecutive_days`; the refusal is recorded in the shift's history.",
        params: idParams,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const reads = readAhead(request, 'ClaimShift', request.params.id);
      const who = await caller(request, principals);
      const { outcome, shift } = await run(
        request,
        who,
        { type: 'ClaimShift', data: { shiftId: request.params.id } },
        reads,
      );
      return written(reply, outcome.position, { ...shift, message: 'Shift claimed successfully' });
    },
  );

  for (const [path, type, message, summary, description] of [
    [
      'approve',
      'ApproveClaim',
      'Shift approved',
      'Approve a claim',
      "Administrators approve the claim pending on a shift: the claimant holds it (approved). Answers the shift and 'Shift approved'; a shift with no claim pending is refused (409).",
    ],
    [
      'deny',
      'DenyClaim',
      'Shift claim denied',
      'Deny a claim',
      "Administrators deny the claim pending on a shift: it is open again at its own priority, with nobody on it. Answers the shift and 'Shift claim denied'; a shift with no claim pending is refused (409).",
    ],
  ] as const) {
    app.post(
      `/api/shifts/:id/${path}`,
      {
        schema: {
          tags: ['shifts'],
          summary,
          description,
          params: idParams,
          response: answers(writtenShiftViewSchema),
        },
      },
      async (request, reply) => {
        const who = await caller(request, principals);
        requireCapability(who, 'approveClaims');
        const { outcome, shift } = await run(request, who, { type, data: { shiftId: request.params.id } });
        return written(reply, outcome.position, { ...shift, message });
      },
    );
  }

  app.post(
    '/api/shifts/:id/request-drop',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Ask to drop a shift',
        description:
          "The holder of a shift asks to drop it; an administrator then approves or denies. Answers the shift and 'Drop request submitted. An admin will review it.'; less than 4 hours before the start (`insufficient_notice`) or once the shift has started (`shift_started`) it is refused (422).",
        params: idParams,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const { outcome, shift } = await run(request, who, {
        type: 'RequestDrop',
        data: { shiftId: request.params.id },
      });
      return written(reply, outcome.position, {
        ...shift,
        message: messageOf(outcome.events, 'Drop request submitted. An admin will review it.'),
      });
    },
  );

  app.post(
    '/api/shifts/:id/assign',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Assign a shift',
        description:
          "Administrators assign a shift directly to a staff member, who then holds it (approved). Answers the shift and 'Shift assigned'; anyone who is not staff is refused (422), and so is a shift that overlaps one the staff member holds (409, `shift_conflict`). The safety rules of docs/product.md §10 apply (422, `missing_credential`, `unavailable`, `rest_too_short`, `weekly_hours_exceeded`, `too_many_consecutive_days`); with `override: { reason }` the administrator assigns against the working-time rules, and the override is recorded with the rules broken.",
        params: idParams,
        body: assignBody,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const reads = readAhead(request, 'AssignShift', request.params.id);
      const who = await caller(request, principals);
      requireCapability(who, 'assignShift');
      const assigneeRole = await roleOf(request.body.staffId);
      const { outcome, shift } = await run(
        request,
        who,
        {
          type: 'AssignShift',
          data: {
            shiftId: request.params.id,
            staffId: request.body.staffId,
            assigneeRole,
            ...(request.body.override ? { override: request.body.override } : {}),
          },
        },
        reads,
      );
      return written(reply, outcome.position, { ...shift, message: 'Shift assigned' });
    },
  );

  app.post(
    '/api/shifts/:id/transfer-request',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Offer a shift to a colleague',
        description:
          "The holder of an approved shift offers it to a colleague (staff or an admin, not themselves), with an optional message. Answers the transfer's id, status pending and 'Transfer Request Sent' (201); a shift has at most one pending transfer.",
        params: idParams,
        body: transferRequestSchema,
        response: answers(transferAnswer, 201),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const trace = commandTrace(request, who.actor);
      const recipientRole = await roleOf(request.body.toUserId);
      const transferId = `${request.params.id}.${newId(trace, 'transfer').slice(0, 8)}`;
      const command: ShiftCommand = {
        type: 'RequestTransfer',
        data: {
          shiftId: request.params.id,
          transferId,
          toUserId: request.body.toUserId,
          recipientRole,
          message: request.body.message ?? null,
        },
      };
      const outcome = await service.shift(command, commandContext(who.actor, deps), trace);
      return written(
        reply,
        outcome.position,
        { id: transferId, status: 'pending', message: 'Transfer Request Sent' },
        201,
      );
    },
  );

  app.patch(
    '/api/transfer-requests/:id',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Answer a transfer',
        description:
          "The recipient accepts or declines a transfer offered to them; accepted, the shift moves to their schedule unless it overlaps a shift they hold (409) or breaks a safety rule of docs/product.md §10 (422, with the rule's code; recorded in the shift's history). Answers the transfer's id and status; anyone else is refused (403).",
        params: idParams,
        body: respondBody,
        response: answers(transferAnswer),
      },
    },
    async (request, reply) => {
      const type = request.body.status === 'accepted' ? 'AcceptTransfer' : 'DeclineTransfer';
      // Only an accepted transfer gives someone the shift; a declined one is decided as it stands.
      const reads =
        type === 'AcceptTransfer' ? readAhead(request, type, shiftOfTransfer(request.params.id)) : undefined;
      const who = await caller(request, principals);
      const ref = transferRef(request.params.id);
      const { outcome } = await run(request, who, { type, data: ref }, reads);
      return written(reply, outcome.position, { id: ref.transferId, status: request.body.status });
    },
  );

  app.delete(
    '/api/transfer-requests/:id',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Cancel a transfer',
        description:
          "The sender cancels a pending transfer they offered. Answers the transfer's id, status cancelled and 'Transfer Request Cancelled'; anyone else is refused (403).",
        params: idParams,
        response: answers(transferAnswer),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const ref = transferRef(request.params.id);
      const { outcome } = await run(request, who, { type: 'CancelTransfer', data: ref });
      return written(reply, outcome.position, {
        id: ref.transferId,
        status: 'cancelled',
        message: 'Transfer Request Cancelled',
      });
    },
  );

  for (const [path, type, message, summary, description] of [
    [
      'approve',
      'ApproveDrop',
      'Drop request approved. The shift is open again.',
      'Approve a drop request',
      "Administrators approve the holder's request to drop a shift (the id is the shift's): it is open again to others at its own priority. Answers the shift and 'Drop request approved. The shift is open again.'",
    ],
    [
      'deny',
      'DenyDrop',
      'Drop request denied. The shift stays assigned.',
      'Deny a drop request',
      "Administrators deny the holder's request to drop a shift (the id is the shift's): the holder keeps it. Answers the shift and 'Drop request denied. The shift stays assigned.'",
    ],
  ] as const) {
    app.post(
      `/api/admin/drop-requests/:id/${path}`,
      {
        schema: {
          tags: ['drop requests'],
          summary,
          description,
          params: idParams,
          response: answers(writtenShiftViewSchema),
        },
      },
      async (request, reply) => {
        const who = await caller(request, principals);
        requireCapability(who, 'approveDrops');
        const { outcome, shift } = await run(request, who, { type, data: { shiftId: request.params.id } });
        return written(reply, outcome.position, { ...shift, message });
      },
    );
  }
};
