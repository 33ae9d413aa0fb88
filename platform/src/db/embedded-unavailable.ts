/** Why the embedded PostgreSQL cannot run here, in one sentence that says what to do; no stack. */
export class EmbeddedPostgresUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresUnavailable';
    this.stack = `${this.name}: ${message}`;
  }
}
