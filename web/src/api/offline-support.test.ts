import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { readAgainWhenSettled } from './offline-support';

/** A query on screen whose reads are counted, each answered when the test says. */
function readOnScreen(client: QueryClient) {
  const answers: ((value: string) => void)[] = [];
  const observer = new QueryObserver(client, {
    queryKey: ['my-shifts'],
    queryFn: () => new Promise<string>((resolve) => answers.push(resolve)),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => {});
  return { answers, unsubscribe };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('when the service worker takes over a page', () => {
  it('a refresh alone does not read again a first read still under way', async () => {
    const client = new QueryClient();
    const { answers, unsubscribe } = readOnScreen(client);
    await settle();
    expect(answers).toHaveLength(1);
    void client.invalidateQueries();
    await settle();
    answers[0]?.('sent before the worker');
    await settle();
    expect(answers).toHaveLength(1);
    unsubscribe();
  });

  it('reads everything on screen again once the reads under way have their answers', async () => {
    const client = new QueryClient();
    const { answers, unsubscribe } = readOnScreen(client);
    await settle();
    expect(answers).toHaveLength(1);
    readAgainWhenSettled(client);
    await settle();
    expect(answers).toHaveLength(1);
    answers[0]?.('sent before the worker');
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]?.('through the worker');
    await settle();
    expect(client.getQueryData(['my-shifts'])).toBe('through the worker');
    // Once: later reads are the screen's own.
    void client.invalidateQueries();
    await settle();
    expect(answers).toHaveLength(3);
    unsubscribe();
  });

  it('reads again at once when nothing is under way', async () => {
    const client = new QueryClient();
    const { answers, unsubscribe } = readOnScreen(client);
    await settle();
    answers[0]?.('first');
    await settle();
    readAgainWhenSettled(client);
    await settle();
    expect(answers).toHaveLength(2);
    unsubscribe();
  });
});
