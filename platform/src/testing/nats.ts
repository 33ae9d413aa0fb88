import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchNatsServer as launch, type NatsServer } from '../nats/server';
import { freePort } from '../net';

export interface TestNatsServer {
  url: string;
  /** Stops the server process (a no-op for `TEST_NATS_URL`). */
  stop(): Promise<void>;
  /** Stops and, after `outageMs`, starts it again on the same port and storage, for resume tests. */
  restart(outageMs?: number): Promise<void>;
}

/** `nats-server` with JetStream on a free loopback port, or the server at `TEST_NATS_URL`. */
export async function startNatsServer(): Promise<TestNatsServer> {
  const given = process.env.TEST_NATS_URL;
  if (given) return { url: given, stop: async () => {}, restart: async () => {} };
  const port = await freePort();
  const storeDir = await mkdtemp(path.join(tmpdir(), 'shiftcover-nats-'));
  let server: NatsServer = await launch({ storeDir, port });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
    async restart(outageMs = 0) {
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, outageMs));
      server = await launch({ storeDir, port });
    },
  };
}
