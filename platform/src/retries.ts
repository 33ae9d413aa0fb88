/** A command lost every attempt to concurrent changes of its stream; the caller may try again. */
export class RetriesExhausted extends Error {
  constructor(readonly streamId: string) {
    super(`Too many concurrent changes to ${streamId}; try again`);
    this.name = 'RetriesExhausted';
  }
}
