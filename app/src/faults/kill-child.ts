import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { spawnGroup, stopGroup } from '@shiftcover/platform/testing';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A service of the product run as its own operating-system process, as in production, so that it
 * can be killed with SIGKILL at any instruction and started again. What it prints is kept, to be
 * shown when a test fails.
 */
export class ServiceProcess {
  output = '';
  kills = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Where the output of the latest start begins. */
  private since = 0;

  constructor(
    private readonly entry: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts the service without waiting for it: a kill may come while it is still starting. */
  start(): void {
    const child = spawnGroup(process.execPath, ['--import', 'tsx', this.entry], {
      cwd: root,
      env: { ...process.env, NATS_URL: '', EVENTSTORE_URL: '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.since = this.output.length;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const take = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
  }

  /** Resolves once the latest start has logged `line`. */
  async printed(line: string): Promise<void> {
    const child = this.child!;
    while (!this.output.includes(line, this.since)) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.entry} exited before it logged "${line}"`);
      }
      await Promise.race([once(child.stdout!, 'data'), this.exited]);
    }
  }

  /** SIGKILL: no signal handler runs, open transactions are cut off wherever they are. */
  async kill(): Promise<void> {
    if (await this.end()) this.kills += 1;
  }

  /** Ends the service at the end of a test, however it is doing. */
  async stop(): Promise<void> {
    await this.end();
  }

  private async end(): Promise<boolean> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    // The whole group: the service and the compiler tsx started for it.
    await stopGroup(child, 'SIGKILL');
    return true;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds, failing after `ms`. */
export async function eventually(what: string, done: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`Timed out waiting until ${what}`);
    await sleep(100);
  }
}
