import { setTimeout as sleep } from 'node:timers/promises';
import type { MailPlannerDeps } from './planner-deps';
import { mailFromNow, planNextBatch } from './runner';
import { deliverDue, type MailTransport } from './sender';

export interface MailProcessDeps extends MailPlannerDeps {
  transport?: MailTransport;
  from: string;
  log?: { error(obj: object, msg: string): void };
  senderIntervalMs?: number;
  /** Off when a JetStream consumer plans the mails; this process then only sends them. */
  plan?: boolean;
}

/**
 * Follows the log on its own checkpoint, turning events into planned mails, and sends what is
 * queued. Without a transport the mails stay in the outbox. An event it cannot plan for is parked
 * and planning goes on; a failure of the database or of read models still catching up is retried.
 */
export class MailProcess {
  private running = false;
  private loops: Promise<void>[] = [];
  private wake: (() => void) | undefined;
  private notified = false;
  private stopWatching: (() => Promise<void>) | undefined;
  /** Ends the sender's wait for its next round when the process stops. */
  private halt = new AbortController();

  constructor(private readonly deps: MailProcessDeps) {}

  async start(): Promise<void> {
    // The first start mails what happens from now on, not the history already in the store.
    await mailFromNow(this.deps.sql, this.deps.store);
    this.running = true;
    this.halt = new AbortController();
    this.loops.push(this.send());
    // Only planning follows the log: sending alone has no use for news of every append.
    if (this.deps.plan ?? true) {
      this.stopWatching = this.deps.store.watch(() => this.nudge());
      this.loops.push(this.plan());
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    this.halt.abort();
    await this.stopWatching?.();
    await Promise.allSettled(this.loops);
  }

  private nudge() {
    this.notified = true;
    this.wake?.();
  }

  private async plan() {
    let failures = 0;
    while (this.running) {
      try {
        this.notified = false;
        const planned = await planNextBatch(this.deps, undefined, ({ event, error }) =>
          this.deps.log?.error(
            { eventId: event.id, position: event.position.toString(), type: event.type, error },
            'event parked: mail cannot be planned for it (see projections:status)',
          ),
        );
        failures = 0;
        if (planned > 0) {
          if (this.deps.transport) await deliverDue(this.deps.sql, this.deps.transport, this.deps.from);
          continue;
        }
        if (!this.notified) await this.pause(1000);
      } catch (error) {
        failures += 1;
        this.deps.log?.error({ err: error }, 'planning mails failed');
        await this.pause(Math.min(30_000, 250 * 2 ** failures));
      }
    }
  }

  private async send() {
    const transport = this.deps.transport;
    if (!transport) return;
    while (this.running) {
      try {
        await deliverDue(this.deps.sql, transport, this.deps.from);
      } catch (error) {
        this.deps.log?.error({ err: error }, 'sending mails failed');
      }
      // Stopping ends the wait: a server that sends mail stops at once, not at the next round.
      await sleep(this.deps.senderIntervalMs ?? 15_000, undefined, { signal: this.halt.signal }).catch(
        () => undefined,
      );
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
