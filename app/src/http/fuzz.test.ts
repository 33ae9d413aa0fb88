import { isSystemActorId } from '@shiftcover/domain';
import { perFile } from '@shiftcover/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';

const server = perFile(startTestServer);
let clients: Client[];
let realIds: string[];
/** Every route of the OpenAPI document, as method and path template (`{id}`). */
let routes: Array<[string, string]>;
let operations: Map<string, Operation>;

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface JsonSchema {
  properties?: Record<string, unknown>;
  anyOf?: JsonSchema[];
}

// The live feed is a stream that stays open; it reads no input but the session.
const STREAMS = new Set(['GET /api/live']);

/**
 * What was written for a person (not by the server's own timers and processes, which may write
 * meanwhile) since `position`: a refused request must have written nothing.
 */
async function writtenForAPersonSince(position: bigint): Promise<string[]> {
  const events = await server.runtime.store.readAll(position, 1000);
  return events
    .filter((event) => !isSystemActorId(event.metadata.actorId))
    .map((event) => `${event.type} by ${event.metadata.actorId}`);
}

beforeAll(async () => {
  const developer = await server.signedIn('developer');
  clients = [
    server.anonymous(),
    await server.signedIn('staff'),
    await server.signedIn('admin'),
    await server.signedIn('admin', { superAdmin: true }),
    developer,
  ];
  const shift = await developer.post('/api/shifts', aShiftForm({ date: '2027-03-01' }));
  const residence = await developer.post('/api/residences', { name: 'Fuzz Lodge' });
  realIds = [shift.body.id as string, residence.body.id as string, developer.userId];
  const document = (await developer.get('/api/docs/json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = new Map(
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation]),
    ),
  );
  routes = [...operations.keys()]
    .filter((route) => !STREAMS.has(route))
    .map((route) => route.split(' ') as [string, string]);
});

const id = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 10 }),
  fc.constantFrom('0', '-1', '%00', '..%2F..%2Fetc', 'a'.repeat(300), '1e309', 'null'),
  fc.constant('__real__'),
);
const field = fc.oneof(
  fc.string({ maxLength: 30 }),
  // Any code point, control characters and lone surrogates included.
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '2026-02-30',
    '25:61',
    'AM',
    'Overnight',
    'urgent',
    'staff',
    'admin',
    'developer',
    '2099-01-01',
    '08:00',
  ),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const fieldNames = [
  'username',
  'password',
  'confirmPassword',
  'email',
  'firstName',
  'lastName',
  'role',
  'superAdmin',
  'location',
  'date',
  'startTime',
  'endTime',
  'type',
  'status',
  'requirements',
  'notes',
  'staffId',
  'toUserId',
  'message',
  'name',
  'description',
  'residenceId',
  'newPassword',
  'currentPassword',
  'mode',
  'assignedUserId',
  'subject',
  'count',
  'recipients',
  'requiredCredentials',
  'override',
  'expiresOn',
  'startDate',
  'endDate',
  'note',
  '__proto__',
  'constructor',
];
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), field, { maxKeys: 8 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('{', 'not json', '[]', '""', '{"a":', '\u0000'),
  fc.constant(undefined),
);
const query = fc.dictionary(
  fc.constantFrom(
    'location',
    'status',
    'type',
    'role',
    'sort',
    'residence',
    'dateRange',
    'offset',
    'limit',
    'userId',
    'action',
    'entityType',
    'startDate',
    'endDate',
    'x',
  ),
  fc.oneof(fc.string({ maxLength: 10 }), fc.string({ unit: 'binary-ascii', maxLength: 10 })),
  { maxKeys: 2 },
);

describe('random and malformed requests on every route', () => {
  it('refuses an edit or a deletion of a residence that is not there with a 404, reserving no name', async () => {
    const developer = clients[4]!;
    for (const call of [
      () => developer.put('/api/residences/x', { name: 'Nowhere House' }),
      () => developer.delete('/api/residences/x'),
    ]) {
      const before = await server.runtime.store.headPosition();
      const reply = await call();
      expect(reply.status).toBe(404);
      expect(reply.body.message).toBe('Residence not found');
      expect(await writtenForAPersonSince(before)).toEqual([]);
    }
    // The name was never held: a new residence takes it.
    expect((await developer.post('/api/residences', { name: 'Nowhere House' })).status).toBe(201);
  });

  it('refuses a plain admin’s edit of an account they may not edit with a 403, reserving no username', async () => {
    const before = await server.runtime.store.headPosition();
    const reply = await clients[2]!.put(`/api/users/${realIds[2]}`, {
      username: 'not-theirs-to-give',
      email: 'not-theirs@example.org',
      firstName: 'Not',
      lastName: 'Theirs',
      role: 'developer',
    });
    expect(reply.status).toBe(403);
    expect(typeof reply.body.message).toBe('string');
    expect(await writtenForAPersonSince(before)).toEqual([]);
  });

  it('never get a 5xx, and a rejected request writes no event', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(routes.length - 1),
        fc.nat(clients.length - 1),
        id,
        body,
        query,
        fc.nat(realIds.length - 1),
        async (r, c, rawId, payload, params, realIndex) => {
          const [method, template] = routes[r]!;
          const chosenId = rawId === '__real__' ? realIds[realIndex]! : encodeURIComponent(rawId) || 'x';
          const search = new URLSearchParams(params).toString();
          const path = template.replace('{id}', chosenId) + (search ? `?${search}` : '');
          const before = await server.runtime.store.headPosition();
          const reply = await clients[c]!.call(method, path, method === 'GET' ? undefined : payload);
          expect(
            reply.status,
            `${method} ${path} ${JSON.stringify(payload)} → ${JSON.stringify(reply.body)}`,
          ).toBeLessThan(500);
          if (reply.status >= 400) {
            expect(typeof reply.body.message).toBe('string');
            expect(await writtenForAPersonSince(before)).toEqual([]);
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});

/** The route with a well-formed id: a parked event is named `<consumer>:<event id>`. */
const realPathOf = (template: string) =>
  template.replace('{id}', template.startsWith('/api/parked-events/') ? `users:${realIds[0]}` : realIds[0]!);

/**
 * A valid body for every route that takes one, each string field present: the sweep below
 * poisons the fields one at a time, so a refusal is the poisoned field's doing.
 */
const validBodies = (ids: { shift: string; residence: string; user: string }): Record<string, unknown> => {
  const shift = aShiftForm({
    date: '2027-03-02',
    status: 'open',
    requirements: 'First aid',
    notes: 'Ring the bell\nthen wait',
  });
  const residence = { name: 'Birch Court', description: 'Six residents', address: '1 Birch Road' };
  return {
    'POST /api/auth/login': { username: 'nobody-here', password: 'not-the-password' },
    'POST /api/auth/change-password': { currentPassword: 'not-the-password', newPassword: 'secret1' },
    'POST /api/shifts': { ...shift, requiredCredentials: ['CPR'] },
    'PUT /api/shifts/{id}': { ...shift, requiredCredentials: ['CPR'], assignedUserId: ids.user },
    'POST /api/shifts/{id}/assign': { staffId: ids.user, override: { reason: 'Short staffed' } },
    'POST /api/shifts/{id}/transfer-request': { toUserId: ids.user, message: 'Can you take it?' },
    'PATCH /api/transfer-requests/{id}': { status: 'declined' },
    'POST /api/residences': residence,
    'PUT /api/residences/{id}': residence,
    'POST /api/users': {
      username: 'fuzzed',
      password: 'secret1',
      confirmPassword: 'secret1',
      firstName: 'Fuzz',
      lastName: 'Tester',
      email: 'fuzz@example.org',
      role: 'staff',
      assignedResidenceId: ids.residence,
    },
    'PUT /api/users/{id}': {
      username: 'fuzzed',
      email: 'fuzz@example.org',
      firstName: 'Fuzz',
      lastName: 'Tester',
      role: 'staff',
      notificationEmail: 'fuzz@example.org',
    },
    'PUT /api/users/{id}/password': { newPassword: 'secret1' },
    'POST /api/users/{id}/assign-residence': { residenceId: ids.residence },
    'POST /api/system-config/email-notification-mode': {
      mode: 'mailing_list',
      mailingListAddress: 'team@example.org',
    },
    'POST /api/notifications/read': { ids: ['note-1'] },
    'POST /api/test-email': { email: 'ops@example.org', subject: 'Hello', message: 'Is mail working?' },
    'POST /api/email-diagnostic': { email: 'ops@example.org' },
    'POST /api/bulk-test-emails': { count: 1 },
    'POST /api/parked-events/{id}/skip': { reason: 'Corrected by hand' },
    'POST /api/admin/resend-shift-notification/{id}': { recipients: [ids.user] },
    'POST /api/users/{id}/credentials': { name: 'CPR', expiresOn: '2027-12-31' },
    'POST /api/credential-types': { name: 'CPR' },
    'POST /api/my-time-off': { startDate: '2027-03-01', endDate: '2027-03-02', note: 'Away' },
    'POST /api/working-time-rules/what-if': { from: '2027-01-01T00:00:00Z', until: '2027-02-01T00:00:00Z' },
    'PUT /api/escalation-policy': {
      steps: [{ hoursBeforeStart: 24, audience: 'all_staff', mark: 'urgent' }],
    },
  };
};

// What no field, id, filter or header may carry: NUL, other C0, DEL, C1, a lone surrogate, and far
// more than any field holds (250 KB, as a location once went into every staff e-mail subject).
const POISONS = ['\u0000', '\u0001', '\u007f', '\u0085', '\ud800', 'x'.repeat(250_000)];
// The same in a URL, percent-encoded. A URL cannot carry a lone surrogate: its bytes are not UTF-8
// and decode to U+FFFD, so ESC stands in for it.
const URL_POISONS = ['%00', '%01', '%7F', '%C2%85', '%1B', 'x'.repeat(5_000)];
const HEADER_POISONS: Record<string, string[]> = {
  'idempotency-key': ['k'.repeat(300), 'two words', 'caf\u00e9'],
  'x-request-id': ['r'.repeat(300), 'two words', 'caf\u00e9'],
  'x-min-position': ['-1', '1e309', '9'.repeat(40), 'abc'],
};

/** The paths to each string in `value`: `["location"]`, `["recipients", 0]`. */
function stringPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...at, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...at, key]));
  }
  return [];
}

function poisoned(body: unknown, path: Array<string | number>, poison: string): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  target[last] = `${String(target[last]).slice(0, 3)}${poison}${String(target[last]).slice(3)}`;
  return copy;
}

/** The names of the string-valued top-level fields the OpenAPI document gives a route's body. */
function documentedStringFields(operation: Operation | undefined): string[] {
  const schema = operation?.requestBody?.content['application/json']?.schema;
  const properties = schema?.properties ?? schema?.anyOf?.find((s) => s.properties)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => JSON.stringify(property).includes('"string"'))
    .map(([name]) => name);
}

describe('control characters, lone surrogates and overlong text on every route, as every role', () => {
  it('every valid example passes validation (signing in is what it lacks), and names every text field', async () => {
    const bodies = validBodies({ shift: realIds[0]!, residence: realIds[1]!, user: realIds[2]! });
    for (const [method, template] of routes) {
      const route = `${method} ${template}`;
      const fields = documentedStringFields(operations.get(route));
      if (fields.length === 0) continue;
      expect(bodies[route], `${route} has a valid example`).toBeDefined();
      expect(Object.keys(bodies[route] as object), route).toEqual(expect.arrayContaining(fields));
      const reply = await clients[0]!.call(method, realPathOf(template), bodies[route]);
      expect(reply.status, `${route} → ${JSON.stringify(reply.body)}`).toBe(401);
    }
  });

  // Thousands of requests, every route as every role: longer than the default minute on a busy machine.
  it('refuses each poisoned field, id and filter with a 400 and its message, and writes nothing', async () => {
    const bodies = validBodies({ shift: realIds[0]!, residence: realIds[1]!, user: realIds[2]! });
    let sent = 0;
    const expectRefused = async (
      client: Client,
      method: string,
      path: string,
      body: unknown,
      statuses: number[],
      headers?: Record<string, string>,
    ) => {
      const before = await server.runtime.store.headPosition();
      const reply = await client.call(method, path, body, headers);
      const shown = `${method} ${path.slice(0, 120)} ${JSON.stringify(body)?.slice(0, 200)} ${JSON.stringify(headers)?.slice(0, 80)}`;
      expect(statuses, `${shown} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`).toContain(
        reply.status,
      );
      expect(typeof reply.body.message, shown).toBe('string');
      expect(await writtenForAPersonSince(before), shown).toEqual([]);
      sent += 1;
    };

    for (const [role, client] of clients.entries()) {
      for (const [method, template] of routes) {
        const route = `${method} ${template}`;
        const operation = operations.get(route);
        const realPath = realPathOf(template);
        const body = bodies[route];
        // NUL everywhere for every role; the other poisons take turns across the roles.
        const poisonsFor = (slot: number) => [0, 1 + ((slot + role) % (POISONS.length - 1))];
        let slot = 0;

        for (const path of stringPaths(body)) {
          for (const p of poisonsFor(slot++)) {
            await expectRefused(client, method, realPath, poisoned(body, path, POISONS[p]!), [400]);
          }
        }
        const queries = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (const name of queries) {
          for (const p of poisonsFor(slot++)) {
            const search = `${name}=a${URL_POISONS[p]}`;
            await expectRefused(client, method, `${realPath}?${search}`, body, [400]);
          }
        }
        if (template.includes('{id}')) {
          for (const p of poisonsFor(slot++)) {
            const path = template.replace('{id}', `a${URL_POISONS[p]}`);
            // An id longer than the router takes is refused by the router itself (414), or matches
            // no route (404).
            await expectRefused(client, method, path, body, [400, 404, 414]);
          }
        }
        for (const header of ['idempotency-key', 'x-request-id']) {
          for (const value of HEADER_POISONS[header]!) {
            await expectRefused(client, method, realPath, body, [400], { [header]: value });
          }
        }
        // A malformed read position is ignored, as if not sent: never a 5xx.
        if (method === 'GET') {
          for (const value of HEADER_POISONS['x-min-position']!) {
            const reply = await client.call(method, realPath, undefined, { 'x-min-position': value });
            expect(reply.status, `${route} x-min-position ${value}`).toBeLessThan(500);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
  }, 240_000);
});
