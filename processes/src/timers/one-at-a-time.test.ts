import { describe, expect, it } from 'vitest';
import { OneAtATime } from './one-at-a-time';

/** A run that lasts until `finish` is called. */
function slowWork() {
  const finishes: Array<() => void> = [];
  let started = 0;
  const work = () => {
    started += 1;
    return new Promise<void>((resolve) => finishes.push(resolve));
  };
  return { work, started: () => started, finish: () => finishes.shift()?.() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('one run at a time', () => {
  it('folds every call made during a run into one more run after it', async () => {
    const slow = slowWork();
    const runs = new OneAtATime(slow.work);
    const first = runs.run();
    const during = [runs.run(), runs.run(), runs.run()];
    await settle();
    expect(slow.started()).toBe(1);
    slow.finish();
    await settle();
    expect(slow.started()).toBe(2);
    slow.finish();
    await Promise.all([first, ...during]);
    expect(slow.started()).toBe(2);
    // Idle again: the next call starts a run of its own.
    const later = runs.run();
    expect(slow.started()).toBe(3);
    slow.finish();
    await later;
  });

  it('starts nothing after stop, and waits for the run under way', async () => {
    const slow = slowWork();
    const runs = new OneAtATime(slow.work);
    void runs.run();
    void runs.run();
    let stopped = false;
    const stopping = runs.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    slow.finish();
    await stopping;
    expect(slow.started()).toBe(1);
  });
});
