import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One staff member's session and the shifts they will claim, one per sample. */
export interface LagQueue {
  cookie: string;
  shiftIds: string[];
}

export interface LagFigures {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** Claims or reads answered 503 under load: counted, not sampled. */
  failed: string[];
}

/**
 * Where a claim is made (`:id` standing for the shift) and where the claimant's own shifts are read
 * back, as `{ upcoming: [{ id }] }`: the product's routes, or the CRUD baseline's.
 */
export interface LagRoutes {
  claim: string;
  read: string;
}

export const productRoutes: LagRoutes = { claim: '/api/shifts/:id/claim', read: '/api/my-shifts' };
export const crudRoutes: LagRoutes = { claim: '/crud/shifts/:id/claim', read: '/crud/my-shifts' };

type Request = { baseUrl: string; queue: LagQueue; samples: number; routes: LagRoutes };
type Reply = { figures: LagFigures } | { error: string };

/**
 * Claims a shift, then reads My Shifts naming the claim's position, `samples` times or until
 * `stopped` says so: the time from the claim's answer to a read that shows it. A read that answers
 * without the claim it waited for is an error, not a sample. Against the CRUD baseline, whose
 * claim is its row, the same loop times a read made right after the write under the same load.
 */
async function sample(
  { baseUrl, queue, samples, routes }: Request,
  stopped: () => boolean,
): Promise<LagFigures> {
  const lags: number[] = [];
  const failed: string[] = [];
  for (let i = 0; i < samples && !stopped(); i++) {
    const shiftId = queue.shiftIds.pop()!;
    const claim = await fetch(`${baseUrl}${routes.claim.replace(':id', shiftId)}`, {
      method: 'POST',
      headers: { cookie: queue.cookie },
    });
    const acknowledged = performance.now();
    const position = claim.headers.get('x-position');
    await claim.arrayBuffer();
    // The product answers every command with its position; the baseline has none to give.
    if (!claim.ok || (!position && routes.read === productRoutes.read)) {
      failed.push(`claim ${claim.status}`);
      continue;
    }
    const read = await fetch(`${baseUrl}${routes.read}`, {
      headers: { cookie: queue.cookie, ...(position ? { 'x-min-position': position } : {}) },
    });
    const mine = (await read.json()) as { upcoming?: { id: string }[] };
    if (!read.ok) {
      failed.push(`read ${read.status}`);
      continue;
    }
    if (!mine.upcoming?.some((s) => s.id === shiftId)) {
      throw new Error(
        `the read API answered without the claim it was asked to wait for (position ${position}, ${mine.upcoming?.length} upcoming)`,
      );
    }
    lags.push(performance.now() - acknowledged);
  }
  lags.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]! * 10) / 10;
  return { samples: lags.length, p50: at(0.5), p99: at(0.99), max: at(1), failed };
}

/**
 * Read-your-writes lag, sampled from a Node process of its own: beside a load, the load
 * generator's event loop (autocannon, in the bench's process) would otherwise delay the sampler's
 * own requests and clocks, and the figure would be the bench's congestion as much as the
 * server's. Sampling stops once `until` settles, whatever the count; the process is stopped
 * whatever happens.
 */
export async function readYourWritesLag(
  baseUrl: string,
  queue: LagQueue,
  samples: number,
  until?: Promise<unknown>,
  routes = productRoutes,
): Promise<LagFigures> {
  return (await lagSampler()).sample(baseUrl, queue, samples, until, routes);
}

/**
 * The sampler's process, started and ready before it is asked for anything: started beside a load,
 * its own start (loading its modules) would take the CPU from the server it measures.
 */
export async function lagSampler(): Promise<{
  sample(
    baseUrl: string,
    queue: LagQueue,
    samples: number,
    until?: Promise<unknown>,
    routes?: LagRoutes,
  ): Promise<LagFigures>;
}> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const stop = () => {
    process.off('exit', orphaned);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) =>
        reject(new Error(`the lag sampler exited with ${code} before it was ready`)),
      );
    });
  } catch (error) {
    stop();
    throw error;
  }
  return {
    async sample(baseUrl, queue, samples, until, routes = productRoutes) {
      try {
        const reply = new Promise<Reply>((resolve, reject) => {
          child.once('message', (message) => resolve(message as Reply));
          child.once('exit', (code) =>
            reject(new Error(`the lag sampler exited with ${code} before answering`)),
          );
        });
        const finish = () => child.connected && child.send('stop');
        until?.then(finish, finish);
        child.send({ baseUrl, queue, samples, routes } satisfies Request);
        const answer = await reply;
        if ('error' in answer) throw new Error(answer.error);
        return answer.figures;
      } finally {
        stop();
      }
    },
  };
}

// In the sampler's own process: ready, then one request, one reply, and it exits.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  let stopped = false;
  process.send('ready');
  process.on('message', (message: Request | 'stop') => {
    if (message === 'stop') {
      stopped = true;
      return;
    }
    sample(message, () => stopped).then(
      (figures) => process.send!({ figures } satisfies Reply, () => process.exit(0)),
      (error: Error) => process.send!({ error: error.message } satisfies Reply, () => process.exit(1)),
    );
  });
}
