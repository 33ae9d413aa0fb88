import { randomUUID } from 'node:crypto';
import { createCommandService } from '@shiftcover/command-api';
import { easternToday, nextDate } from '@shiftcover/domain';
import { hashPassword } from '@shiftcover/platform';
import { aPerson } from '@shiftcover/testing';
import type { Runtime } from '../runtime';
import { Client, PASSWORD } from '../testing/http';

const WORKERS = 3;

/** A shift the load posted, and which of its writes were acknowledged. */
export interface Shift {
  id: string;
  date: string;
  email: string;
  userId: string;
  acknowledged: Array<'ShiftPosted' | 'ShiftClaimed' | 'ClaimApproved'>;
}

export interface Person {
  userId: string;
  username: string;
}

/** An administrator and a staff member per worker, with passwords, through the command path. */
export async function register(runtime: Runtime) {
  const service = createCommandService(runtime.handler, runtime.vault);
  const passwordHash = await hashPassword(PASSWORD);
  const person = async (role: 'admin' | 'staff'): Promise<Person> => {
    const userId = randomUUID();
    const username = `${role}-${userId.slice(0, 8)}`;
    const registration = aPerson({
      userId,
      name: username,
      role,
      superAdmin: role === 'admin',
      personal: { firstName: 'Kim', lastName: username, passwordHash },
    });
    await service.users.register(
      registration,
      { actor: { kind: 'system', name: 'scenario' }, now: new Date() },
      { commandId: randomUUID() },
    );
    return { userId, username };
  };
  const admin = await person('admin');
  const staff: Person[] = [];
  for (let i = 0; i < WORKERS; i++) staff.push(await person('staff'));
  return { admin, staff };
}

/** Workers that each sign a staff member in, then post, claim, approve and read shifts until stopped. */
export class Load {
  requests = 0;
  serverErrors: string[] = [];
  refusals: string[] = [];
  staleReads = 0;
  shifts: Shift[] = [];
  private going = true;
  private readonly latest = { position: 0n };

  constructor(
    private readonly url: string,
    private readonly people: { admin: Person; staff: Person[] },
  ) {}

  stop() {
    this.going = false;
  }

  async run(): Promise<void> {
    const admin = await this.signIn(this.people.admin);
    await Promise.all(this.people.staff.map((person, worker) => this.work(admin, person, worker)));
  }

  private async work(admin: Client, person: Person, worker: number) {
    let date = easternToday(new Date());
    for (let i = 0; i < 10 + worker; i++) date = nextDate(date);
    while (this.going) {
      // Every other day, so that each person's shifts keep to the working-time rules (docs/product.md §10).
      date = nextDate(nextDate(date));
      const staff = await this.signIn(person);
      const shift: Shift = {
        id: '',
        date,
        email: `${person.username}@example.org`,
        userId: person.userId,
        acknowledged: [],
      };
      const body = { location: 'Maple House', date, startTime: '08:00', endTime: '16:00', type: 'AM' };
      const posted = await this.write(admin, '/api/shifts', body, 201);
      if (!posted) continue;
      shift.id = posted.id as string;
      shift.acknowledged.push('ShiftPosted');
      this.shifts.push(shift);
      if (!(await this.write(staff, `/api/shifts/${shift.id}/claim`, undefined, 200))) continue;
      shift.acknowledged.push('ShiftClaimed');
      if (!(await this.write(admin, `/api/shifts/${shift.id}/approve`, undefined, 200))) continue;
      shift.acknowledged.push('ClaimApproved');
      // Read back through whichever read API answers, at least at the approval's position.
      const mine = await this.read(staff, '/api/my-shifts');
      if (mine && !JSON.stringify(mine).includes(shift.id)) this.staleReads += 1;
      await this.read(admin, '/api/shifts/pending');
    }
  }

  private async signIn(person: Person): Promise<Client> {
    const client = new Client(this.url, this.latest);
    for (;;) {
      const reply = await this.write(
        client,
        '/api/auth/login',
        { username: person.username, password: PASSWORD },
        200,
      );
      if (reply) return client;
    }
  }

  /** A write with an Idempotency-Key, so that the gateway may send it again to another copy. */
  private async write(client: Client, path: string, body: unknown, expected: number) {
    const reply = await client.post(path, body, { 'idempotency-key': randomUUID() });
    return this.count(reply.status, expected, `POST ${path}`) ? reply.body : undefined;
  }

  private async read(client: Client, path: string) {
    const reply = await client.get(path);
    return this.count(reply.status, 200, `GET ${path}`) ? reply.body : undefined;
  }

  private count(status: number, expected: number, what: string): boolean {
    this.requests += 1;
    if (status === expected) return true;
    (status >= 500 ? this.serverErrors : this.refusals).push(`${status} ${what}`);
    return false;
  }
}
