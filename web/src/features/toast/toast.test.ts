import { describe, expect, it } from 'vitest';
import { markToastDrawn, markToasterFailed, toast, whenToastDrawn, whenToasterFailed } from './toast';

describe('waiting for the toaster', () => {
  it('tells who waits once a toast is drawn, and at once whoever asks later', () => {
    const id = toast({ title: 'Unauthorized' });
    const heard: string[] = [];
    whenToastDrawn(id, () => heard.push('early'));
    expect(heard).toEqual([]);
    markToastDrawn(id);
    markToastDrawn(id);
    whenToastDrawn(id, () => heard.push('late'));
    expect(heard).toEqual(['early', 'late']);
  });

  it('tells who waits when the toaster cannot be fetched, once, and at once whoever asks later', () => {
    const heard: string[] = [];
    whenToasterFailed(() => heard.push('early'));
    expect(heard).toEqual([]);
    markToasterFailed();
    markToasterFailed();
    whenToasterFailed(() => heard.push('late'));
    expect(heard).toEqual(['early', 'late']);
  });
});
