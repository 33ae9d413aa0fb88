import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { createCommandService } from '@shiftcover/command-api';
import { aPerson } from '@shiftcover/domain/testing';
import { freePort } from '@shiftcover/platform';
import { describe, expect, it } from 'vitest';
import { ProjectorThread } from './projector-thread';
import { useTestRuntime } from './testing/runtime';

const opened = useTestRuntime();

/** A person registered through the command path, and the log's head once they are. */
async function register(): Promise<{ userId: string; position: bigint }> {
  const person = aPerson();
  await createCommandService(opened.runtime.handler, opened.runtime.vault).users.register(
    person,
    { actor: { kind: 'system', name: 'test' }, now: new Date() },
    { commandId: randomUUID() },
  );
  return { userId: person.userId, position: await opened.runtime.store.headPosition() };
}

/** A thread on the test database, with the advances it reported and the errors it logged. */
function aThread() {
  const advances: { name: string; position: bigint }[] = [];
  const errors: string[] = [];
  const waiting = new Set<() => void>();
  const thread = new ProjectorThread(
    { databaseUrl: opened.db.url, logLevel: 'silent' },
    {
      onAdvance: (name, position) => {
        advances.push({ name, position });
        for (const check of waiting) check();
      },
      log: { error: (_: unknown, message?: string) => void errors.push(message ?? ''), info: () => {} },
    },
  );
  /** Resolves once `readModel` is reported at `position` or beyond. */
  const reached = (readModel: string, position: bigint, withinMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`${readModel} was not reported at ${position} within ${withinMs} ms`));
      }, withinMs);
      const check = () => {
        if (!advances.some((a) => a.name === readModel && a.position >= position)) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { thread, advances, errors, reached };
}

const userRow = async (userId: string) =>
  (await opened.runtime.sql`select id from rm_users where id = ${userId}`).length;

describe('the projector on a thread of its own', () => {
  it('applies what is appended and reports each read model’s new checkpoint to the server', async () => {
    const { thread, reached } = aThread();
    await thread.start();
    try {
      const { userId, position } = await register();
      thread.wakeAll();
      await reached('users', position);
      await reached('audit_log', position);
      expect(await userRow(userId)).toBe(1);
    } finally {
      await thread.stop();
    }
  });

  it('ends when stopped, with nothing more applied after', async () => {
    const { thread, advances, reached } = aThread();
    await thread.start();
    const { position } = await register();
    await reached('users', position);
    await thread.stop();
    const reported = advances.length;
    const { userId } = await register();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(advances.length).toBe(reported);
    expect(await userRow(userId)).toBe(0);
    // Another projector takes it from there: the checkpoints were left where the batch ended.
    const next = aThread();
    await next.thread.start();
    try {
      await next.reached('users', await opened.runtime.store.headPosition());
      expect(await userRow(userId)).toBe(1);
    } finally {
      await next.thread.stop();
    }
  });

  it('starts again when its thread ends unasked, and goes on where it stopped', async () => {
    const { thread, errors, reached } = aThread();
    await thread.start();
    try {
      const worker = (thread as unknown as { worker: Worker }).worker;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await worker.terminate();
      await exited;
      const { userId, position } = await register();
      await reached('users', position);
      expect(await userRow(userId)).toBe(1);
      expect(errors).toContain('the projector thread ended: starting it again');
    } finally {
      await thread.stop();
    }
  });

  it('says why when it cannot start, and leaves no thread behind', async () => {
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
    const errors: string[] = [];
    const thread = new ProjectorThread(
      { databaseUrl: nowhere, logLevel: 'silent' },
      {
        onAdvance: () => {},
        log: { error: (_: unknown, m?: string) => void errors.push(m ?? ''), info: () => {} },
      },
    );
    await expect(thread.start()).rejects.toThrow(/ECONNREFUSED|connect/);
    expect((thread as unknown as { worker?: Worker }).worker).toBeUndefined();
    await thread.stop();
    expect(errors).toEqual([]);
  });
});
