import { describe, expect, it } from 'vitest';
import { actorIdOf, isSystemActorId } from './decider';
import { uuidFromDigest } from './ids';

describe('ids derived from a digest', () => {
  it('lays any digest out as a version-5 UUID with the RFC 4122 variant', () => {
    for (const hex of ['0'.repeat(64), 'f'.repeat(64), '0123456789abcdef'.repeat(4)]) {
      expect(uuidFromDigest(hex)).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    expect(uuidFromDigest('0123456789abcdef'.repeat(4))).toBe('01234567-89ab-5def-8123-456789abcdef');
  });
});

describe('actor ids', () => {
  it('records a user by id and a timer or process as system:<name>', () => {
    expect(actorIdOf({ kind: 'user', userId: 'u1', role: 'staff', superAdmin: false })).toBe('u1');
    expect(actorIdOf({ kind: 'system', name: 'timers' })).toBe('system:timers');
    expect(isSystemActorId('system:timers')).toBe(true);
    expect(isSystemActorId('u1')).toBe(false);
  });
});
