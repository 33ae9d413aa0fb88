import { freePort, withQueryParameter } from '@shiftcover/platform';
import { ServiceProcess } from '../faults/kill-child';
import { type ProxyServer, startProxy } from './proxy';

export type Kind = 'command-api' | 'read-api' | 'projector' | 'processes';

/** Each service as `npm run serve:command-api`, `serve:read-api`, `projections` and `processes` run it. */
const services: Record<Kind, { entry: string; ready: string; http: boolean }> = {
  'command-api': { entry: 'app/src/services/command-api.ts', ready: 'command-api listening', http: true },
  'read-api': { entry: 'app/src/services/read-api.ts', ready: 'read-api listening', http: true },
  projector: { entry: 'app/src/services/projections.ts', ready: 'projector running', http: false },
  processes: { entry: 'app/src/services/processes.ts', ready: 'processes running', http: false },
};
export const kinds = Object.keys(services) as Kind[];

export interface Instance {
  kind: Kind;
  /** Also the `application_name` of its database connections. */
  name: string;
  process: ServiceProcess;
}

export interface Cluster {
  proxy: ProxyServer;
  instances: Instance[];
  stop(): Promise<void>;
}

/**
 * `copies` of every service of the deployment, each its own operating-system process, on one
 * PostgreSQL, one NATS and one SMTP server, behind a round-robin gateway.
 */
export async function startCluster(
  env: { DATABASE_URL: string; NATS_URL: string; SMTP_URL: string },
  { copies = 2, cleanups }: { copies?: number; cleanups?: Array<() => Promise<unknown>> } = {},
): Promise<Cluster> {
  const proxyPort = await freePort();
  const instances: Instance[] = [];
  const ports: Record<'commands' | 'reads', number[]> = { commands: [], reads: [] };
  let proxy: ProxyServer | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.process.stop()));
  };
  // A caller that gives up waiting (a test's timeout) still ends every process.
  cleanups?.push(stop);
  try {
    for (const kind of kinds) {
      for (let i = 1; i <= copies; i++) {
        const name = `${kind}-${i}`;
        const port = services[kind].http ? await freePort() : undefined;
        if (port) (kind === 'command-api' ? ports.commands : ports.reads).push(port);
        const child = new ServiceProcess(services[kind].entry, {
          ...env,
          DATABASE_URL: withQueryParameter(env.DATABASE_URL, 'application_name', name),
          PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
          LOG_LEVEL: 'info',
          ...(port ? { PORT: String(port) } : {}),
        });
        instances.push({ kind, name, process: child });
      }
    }
    for (const instance of instances) instance.process.start();
    for (const instance of instances) await instance.process.printed(services[instance.kind].ready);
    proxy = await startProxy(ports, proxyPort);
    return { proxy, instances, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
