import { randomUUID } from 'node:crypto';
import { streams } from '@shiftcover/domain';
import type { EventStore, PersonalDataVault } from '@shiftcover/eventstore';

/**
 * Stores a `UserRegistered` whose first name holds a NUL character, sealed as the command path
 * seals personal data and appended straight to the store, as if an older API had let it through.
 * PostgreSQL text refuses NUL, so the users read model cannot apply it. Returns the user's id.
 */
export async function appendUnapplicableUser(
  deps: { store: EventStore; vault: PersonalDataVault },
  name: string,
  at = new Date('2026-03-01T12:00:00Z'),
): Promise<{ userId: string; eventId: string; position: bigint }> {
  const userId = randomUUID();
  const [sealed] = await deps.vault.seal([
    {
      type: 'UserRegistered',
      data: {
        userId,
        role: 'staff',
        superAdmin: false,
        emailNotificationsEnabled: true,
        assignedResidenceId: null,
        personal: {
          username: name,
          email: `${name}@example.org`,
          firstName: 'A\u0000B',
          lastName: 'Test',
          notificationEmail: `${name}@example.org`,
          passwordHash: 'scrypt$x',
        },
        at: at.toISOString(),
      },
    },
  ]);
  const { eventId, position } = await appendStraight(
    deps.store,
    streams.user(userId),
    'UserRegistered',
    sealed!.data,
  );
  return { userId, eventId, position };
}

/**
 * Appends one event straight to the store, bypassing the deciders, as if an older API had let it
 * through: for the values read models must park rather than apply. A new stream's first event.
 */
export async function appendStraight(
  store: EventStore,
  streamId: string,
  type: string,
  data: Record<string, unknown>,
): Promise<{ eventId: string; position: bigint }> {
  const commandId = randomUUID();
  const eventId = randomUUID();
  const { position } = await store.append(
    streamId,
    [
      {
        id: eventId,
        type,
        data,
        metadata: {
          commandId,
          correlationId: commandId,
          causationId: commandId,
          actorId: 'system:test',
          actorRole: 'system',
          schemaVersion: 1,
        },
      },
    ],
    'no_stream',
  );
  return { eventId, position };
}
