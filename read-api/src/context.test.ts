import type { Principal } from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Positions } from './consistency';
import { type ReadApiDeps, reader } from './context';

/** A promise and the hands that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const staff: Principal = { userId: 'u1', role: 'staff', superAdmin: false };
const request = (headers: Record<string, string>, session: object | null = { userId: 'u1' }) =>
  ({ headers, session: session ?? undefined }) as unknown as FastifyRequest;

/** Deps whose sign-in check and wait the test settles by hand, recording when each began. */
function depsWith(check: Promise<Principal>, wait: Promise<void>) {
  const began: string[] = [];
  const deps = {
    currentUser: () => {
      began.push('check');
      return check;
    },
    positions: {
      waitFor: () => {
        began.push('wait');
        return wait;
      },
    } as unknown as Positions,
  } as unknown as ReadApiDeps;
  return { deps, began };
}

describe('a reader waiting for their own write', () => {
  it('waits for the position beside the sign-in check, and goes on once both are done', async () => {
    const check = deferred<Principal>();
    const wait = deferred<void>();
    const { deps, began } = depsWith(check.promise, wait.promise);
    let done = false;
    const reading = reader(request({ 'x-min-position': '42' }), deps, ['shifts']).then((who) => {
      done = true;
      return who;
    });
    await Promise.resolve();
    expect(began.sort()).toEqual(['check', 'wait']);
    check.resolve(staff);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toBe(false);
    wait.resolve();
    expect(await reading).toEqual(staff);
  });

  it('is refused as soon as the check fails, whatever the wait does after', async () => {
    const check = deferred<Principal>();
    const wait = deferred<void>();
    const { deps } = depsWith(check.promise, wait.promise);
    const reading = reader(request({ 'x-min-position': '42' }), deps, ['shifts']);
    check.reject(new HttpError(401, 'Unauthorized'));
    await expect(reading).rejects.toMatchObject({ statusCode: 401 });
    // The wait ending badly later is nobody's error.
    wait.reject(new HttpError(503, 'The latest changes are still being processed.'));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it('waits for nothing for a request without a session, which is refused', async () => {
    const { deps, began } = depsWith(
      Promise.reject(new HttpError(401, 'Unauthorized')),
      new Promise(() => {}),
    );
    await expect(reader(request({ 'x-min-position': '42' }, null), deps, ['shifts'])).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(began).toEqual(['check']);
  });

  it('refuses a reader without the capability before anything is read, and waits for nothing unasked', async () => {
    const { deps, began } = depsWith(Promise.resolve(staff), new Promise(() => {}));
    await expect(reader(request({}), deps, ['shifts'], 'viewPendingApprovals')).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(began).toEqual(['check']);
  });
});
