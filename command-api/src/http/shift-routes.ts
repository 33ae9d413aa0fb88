import {
  acknowledged,
  answers,
  entityId,
  pickedId,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftState,
  shiftDetailsSchema,
  transferAnswer,
  transferRequestSchema,
  userDecider,
  writtenShiftViewSchema,
} from '@shiftcover/domain';
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

const assignBody = z.object({ staffId: pickedId('No Staff Selected') });
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

/** Transfer request ids name their shift: `<shiftId>.<n>`. */
function transferRef(id: string) {
  const dot = id.lastIndexOf('.');
  if (dot <= 0) throw new HttpError(404, 'Transfer request not found');
  return { shiftId: id.slice(0, dot), transferId: id };
}

export const shiftRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { handler, service, principals } = deps;

  async function run(request: FastifyRequest, who: Caller, command: ShiftCommand) {
    const outcome = await service.shift(
      command,
      commandContext(who.actor, deps),
      commandTrace(request, who.actor),
    );
    return { outcome, shift: shiftView(outcome.shift) };
  }

  async function roleOf(userId: string) {
    const { state } = await handler.load(streams.user(userId), userDecider);
    if (state.status !== 'active') throw new HttpError(404, 'User not found');
    return state.role;
  }

  const messageOf = (events: ShiftEvent[], fallback: string) =>
    events.length ? fallback : 'Nothing to change';

  const newShiftSchema = {
    tags: ['shifts'],
    body: createBody,
    response: answers(writtenShiftViewSchema, 201),
  };
  app.post('/api/shifts', { schema: newShiftSchema }, async (request, reply) => {
    const who = await caller(request, principals);
    requireCapability(who, 'createShift');
    const trace = commandTrace(request, who.actor);
    const shiftId = newId(trace, 'shift');
    const { needsApproval: _n, approved: _a, ...details } = request.body;
    const command: ShiftCommand = { type: 'PostShift', data: { ...details, shiftId } };
    const outcome = await service.shift(command, commandContext(who.actor, deps), trace);
    return written(reply, outcome.position, shiftView(outcome.shift), 201);
  });

  app.put(
    '/api/shifts/:id',
    {
      schema: {
        tags: ['shifts'],
        params: idParams,
        body: updateBody,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'editShift');
      const { assignedUserId, ...details } = request.body;
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
    { schema: { tags: ['shifts'], params: idParams, response: answers(acknowledged) } },
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
    { schema: { tags: ['shifts'], params: idParams, response: answers(writtenShiftViewSchema) } },
    async (request, reply) => {
      const who = await caller(request, principals);
      const { outcome, shift } = await run(request, who, {
        type: 'ClaimShift',
        data: { shiftId: request.params.id },
      });
      return written(reply, outcome.position, { ...shift, message: 'Shift claimed successfully' });
    },
  );

  for (const [path, type, message] of [
    ['approve', 'ApproveClaim', 'Shift approved'],
    ['deny', 'DenyClaim', 'Shift claim denied'],
  ] as const) {
    app.post(
      `/api/shifts/:id/${path}`,
      { schema: { tags: ['shifts'], params: idParams, response: answers(writtenShiftViewSchema) } },
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
    { schema: { tags: ['shifts'], params: idParams, response: answers(writtenShiftViewSchema) } },
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
        params: idParams,
        body: assignBody,
        response: answers(writtenShiftViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'assignShift');
      const assigneeRole = await roleOf(request.body.staffId);
      const { outcome, shift } = await run(request, who, {
        type: 'AssignShift',
        data: { shiftId: request.params.id, staffId: request.body.staffId, assigneeRole },
      });
      return written(reply, outcome.position, { ...shift, message: 'Shift assigned' });
    },
  );

  app.post(
    '/api/shifts/:id/transfer-request',
    {
      schema: {
        tags: ['transfers'],
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
      schema: { tags: ['transfers'], params: idParams, body: respondBody, response: answers(transferAnswer) },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      const ref = transferRef(request.params.id);
      const type = request.body.status === 'accepted' ? 'AcceptTransfer' : 'DeclineTransfer';
      const { outcome } = await run(request, who, { type, data: ref });
      return written(reply, outcome.position, { id: ref.transferId, status: request.body.status });
    },
  );

  app.delete(
    '/api/transfer-requests/:id',
    { schema: { tags: ['transfers'], params: idParams, response: answers(transferAnswer) } },
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

  for (const [path, type, message] of [
    ['approve', 'ApproveDrop', 'Drop request approved. The shift is open again.'],
    ['deny', 'DenyDrop', 'Drop request denied. The shift stays assigned.'],
  ] as const) {
    app.post(
      `/api/admin/drop-requests/:id/${path}`,
      { schema: { tags: ['drop requests'], params: idParams, response: answers(writtenShiftViewSchema) } },
      async (request, reply) => {
        const who = await caller(request, principals);
        requireCapability(who, 'approveDrops');
        const { outcome, shift } = await run(request, who, { type, data: { shiftId: request.params.id } });
        return written(reply, outcome.position, { ...shift, message });
      },
    );
  }
};
