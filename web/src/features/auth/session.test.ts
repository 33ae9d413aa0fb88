import { describe, expect, it } from 'vitest';
import { ApiError, OFFLINE } from '../../api/client';
import { offlineMessage } from '../../api/offline';
import { sessionFailureMessage } from './session';
import { SESSION_RETRY_DELAYS_MS, sessionRetryDelay } from './session-unavailable';

describe('why who is signed in could not be read', () => {
  it('says the device is offline when it is', () => {
    const error = new ApiError(0, offlineMessage('GET', '/api/auth/user'), OFFLINE);
    expect(sessionFailureMessage(error)).toBe('You are offline. Loading this needs a connection.');
  });

  it("gives the server's own answer when there is one", () => {
    // The server's answer to a failure of its own (platform/src/http/errors.ts).
    const answer = 'Something went wrong on our side. Please try again.';
    expect(sessionFailureMessage(new ApiError(500, answer))).toBe(answer);
  });

  it('says the server cannot be reached when a connected device gets no answer', () => {
    expect(sessionFailureMessage(new TypeError('Failed to fetch'))).toBe('The server cannot be reached.');
  });
});

describe('when the page that says so reads again by itself', () => {
  it('waits longer after each read that failed, up to its longest wait, and keeps trying', () => {
    const waits = Array.from({ length: 8 }, (_, attempts) => sessionRetryDelay(attempts));
    expect(waits.slice(0, 4)).toEqual([3_000, 6_000, 12_000, 30_000]);
    expect(new Set(waits.slice(3))).toEqual(new Set([SESSION_RETRY_DELAYS_MS.at(-1)]));
  });
});
