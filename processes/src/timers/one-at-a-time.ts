/**
 * Runs `work` one run at a time. A call that comes while a run is under way asks for one more run
 * after it, however many such calls come meanwhile: runs never queue up behind each other, and
 * the one that follows starts afresh. Every caller's promise settles when the run that covers
 * its call is over.
 */
export class OneAtATime {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly work: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.work();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** No run starts after this; resolves when the one under way, if any, is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }
}
