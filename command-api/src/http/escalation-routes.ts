import { answers, escalationPolicySchema, writtenEscalationPolicyViewSchema } from '@shiftcover/domain';
import { caller, commandContext, commandTrace, requireCapability, written } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CommandApiDeps } from './context';

/** The escalation policy's write (docs/product.md §11). */
export const escalationRoutes: FastifyPluginAsyncZod<CommandApiDeps> = async (app, deps) => {
  const { service, principals } = deps;

  app.put(
    '/api/escalation-policy',
    {
      schema: {
        tags: ['escalation policy'],
        summary: 'Set the escalation policy',
        description:
          "Super admins and developers set the ladder of steps a shift still unfilled goes through: each step's time (`hoursBeforeStart`, a whole number of hours from 0 to 720 before the start, or null for the moment the shift is posted or open again), its audience (`eligible_staff`, `all_staff`, `residence_admins`, `super_admins`) and whether it marks the shift `urgent` or `emergency`. At most 10 steps, in order: the step at posting first, then from the most hours before the start to the fewest. Every change is an event and raises the version. Answers the policy in force.",
        body: escalationPolicySchema,
        response: answers(writtenEscalationPolicyViewSchema),
      },
    },
    async (request, reply) => {
      const who = await caller(request, principals);
      requireCapability(who, 'changeEscalationPolicy');
      const outcome = await service.escalation.setPolicy(
        { type: 'SetEscalationPolicy', data: request.body },
        commandContext(who.actor, deps),
        commandTrace(request, who.actor),
      );
      const message = outcome.events.length ? 'Escalation policy saved' : 'Nothing to change';
      return written(reply, outcome.position, { ...outcome.state, message });
    },
  );
};
