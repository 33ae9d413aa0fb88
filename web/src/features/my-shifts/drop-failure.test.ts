import { describe, expect, it } from 'vitest';
import { ApiError, OFFLINE } from '../../api/client';
import { offlineMessage } from '../../api/offline';
import { dropFailureToast } from './drop-failure';

describe('drop request failure toasts', () => {
  it('says Insufficient Notice for 10 s when the shift is less than 4 hours away', () => {
    const error = new ApiError(
      409,
      'Cannot drop a shift with less than 4 hours notice. Please contact your administrator.',
      'insufficient_notice',
    );
    expect(dropFailureToast(error)).toMatchObject({
      title: 'Insufficient Notice',
      description: error.message,
      durationMs: 10_000,
    });
  });

  it('recognises the notice rule from the message alone', () => {
    const error = new ApiError(400, 'Shifts need at least 4 hours notice to drop');
    expect(dropFailureToast(error).title).toBe('Insufficient Notice');
  });

  it('says Shift Already Started for 8 s', () => {
    const error = new ApiError(409, 'This shift has already started and cannot be dropped', 'shift_started');
    expect(dropFailureToast(error)).toMatchObject({ title: 'Shift Already Started', durationMs: 8_000 });
  });

  it('falls back to Error with the server message, or the product guide’s text, for 5 s', () => {
    expect(dropFailureToast(new ApiError(404, 'Shift not found'))).toMatchObject({
      title: 'Error',
      description: 'Shift not found',
      durationMs: 5_000,
    });
    expect(dropFailureToast(new Error(''))).toMatchObject({
      title: 'Error',
      description: 'Failed to request shift drop',
    });
  });

  it('says Offline when the request could not be sent', () => {
    const error = new ApiError(0, offlineMessage('POST', '/api/shifts/s1/request-drop'), OFFLINE);
    expect(dropFailureToast(error)).toMatchObject({
      title: 'Offline',
      description: 'You are offline. Requesting a drop needs a connection.',
    });
  });
});
