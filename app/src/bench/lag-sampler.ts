import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect } from '@shiftcover/platform';
import { CHECKPOINT_CHANNEL, checkpointNotice } from '@shiftcover/projections';

/** One staff member's session and the shifts they will claim, one per sample. */
export interface LagQueue {
  cookie: string;
  shiftIds: string[];
}

/** How many times were taken, their 50th and 99th percentiles and the largest, in milliseconds. */
export interface Spread {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LagFigures extends Spread {
  /**
   * Samples not taken: claims or reads answered 503 under load, and claims whose checkpoint
   * notice never came.
   */
  failed: string[];
  /**
   * When the database was given: from each claim's answer until the read model behind the read
   * had applied it, heard from PostgreSQL's notice of its checkpoint, without the read's own trip.
   */
  readModel?: Spread;
  /** The times themselves, in milliseconds, for figures of several runs taken together. */
  times: { read: number[]; readModel: number[] };
}

/** The figures of several sampling runs as one: their times together, their failures together. */
export function lagOfRuns(runs: readonly LagFigures[]): LagFigures {
  const read = runs.flatMap((run) => run.times.read);
  const readModel = runs.flatMap((run) => run.times.readModel);
  return {
    ...spread(read),
    failed: runs.flatMap((run) => run.failed),
    ...(readModel.length > 0 ? { readModel: spread(readModel) } : {}),
    times: { read, readModel },
  };
}

/** The read model My Shifts shows a claim from. */
const CLAIMS_READ_MODEL = 'shifts';
/** How long a sample waits for the checkpoint's notice once the read has shown the claim. */
const NOTICE_WAIT_MS = 2_000;

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

type Request = {
  baseUrl: string;
  queue: LagQueue;
  samples: number;
  routes: LagRoutes;
  databaseUrl?: string;
};
type Reply = { figures: LagFigures } | { error: string };

/** The 50th and 99th percentiles and the largest of some times, in tenths of a millisecond. */
function spread(times: number[]): Spread {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
  return { samples: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

/**
 * Claims a shift, then reads My Shifts naming the claim's position, `samples` times or until
 * `stopped` says so: the time from the claim's answer to a read that shows it. A read that answers
 * without the claim it waited for is an error, not a sample. Against the CRUD baseline, whose
 * claim is its row, the same loop times a read made right after the write under the same load.
 *
 * Given the database, it also listens for the read models' checkpoint notices and times each
 * claim's answer to the notice that the shifts read model has passed its position: how stale the
 * read model was, without the time a read itself waits its turn in a busy server.
 */
async function sample(
  { baseUrl, queue, samples, routes, databaseUrl }: Request,
  stopped: () => boolean,
): Promise<LagFigures> {
  const lags: number[] = [];
  const modelLags: number[] = [];
  const failed: string[] = [];
  const heard: { position: bigint; at: number }[] = [];
  const sql = databaseUrl ? connect(databaseUrl, { max: 1 }) : undefined;
  await sql?.listen(CHECKPOINT_CHANNEL, (payload) => {
    for (const { name, position } of checkpointNotice(payload)) {
      if (name === CLAIMS_READ_MODEL) heard.push({ position, at: performance.now() });
    }
  });
  const appliedAt = async (position: bigint) => {
    const deadline = performance.now() + NOTICE_WAIT_MS;
    for (;;) {
      const notice = heard.find((h) => h.position >= position);
      if (notice || performance.now() > deadline) return notice?.at;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  try {
    for (let i = 0; i < samples && !stopped(); i++) {
      const shiftId = queue.shiftIds.pop()!;
      // Notices of checkpoints before this claim say nothing of it.
      heard.length = 0;
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
      if (sql && position) {
        const applied = await appliedAt(BigInt(position));
        if (applied === undefined) failed.push('no checkpoint notice');
        // A notice heard before the answer: the read model had the claim before its claimant did.
        else modelLags.push(Math.max(0, applied - acknowledged));
      }
    }
  } finally {
    await sql?.end();
  }
  return {
    ...spread(lags),
    failed,
    ...(modelLags.length > 0 ? { readModel: spread(modelLags) } : {}),
    times: { read: lags, readModel: modelLags },
  };
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
  databaseUrl?: string,
): Promise<LagFigures> {
  return (await lagSampler()).sample(baseUrl, queue, samples, until, routes, databaseUrl);
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
    databaseUrl?: string,
  ): Promise<LagFigures>;
}> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // A message that can no longer reach an ended sampler fails with EPIPE; its exit, heard below,
  // is what says so, not an unhandled error that would end the bench.
  child.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
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
    async sample(baseUrl, queue, samples, until, routes = productRoutes, databaseUrl) {
      try {
        const reply = new Promise<Reply>((resolve, reject) => {
          child.once('message', (message) => resolve(message as Reply));
          child.once('exit', (code) =>
            reject(new Error(`the lag sampler exited with ${code} before answering`)),
          );
        });
        // The sampler may be answering and exiting just as the load ends: a 'stop' it can no longer
        // take (EPIPE) is of no interest, and must not end the bench as an unhandled error.
        const finish = () => child.connected && child.send('stop', () => undefined);
        until?.then(finish, finish);
        child.send({ baseUrl, queue, samples, routes, databaseUrl } satisfies Request);
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
