import { hash as digestOf, randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Sql } from 'postgres';
import type { Migration } from '../db/migrate';

/** Every session that ends (signed out, expired, ended by a password change or a deletion) is named here. */
const SESSION_ENDED_CHANNEL = 'session_ended';

export const sessionMigrations: Migration[] = [
  {
    id: '001-sessions',
    up: `create table sessions (
      sid text primary key,
      sess jsonb not null,
      expire timestamptz not null
    );
    create index sessions_expire on sessions (expire);
    create index sessions_user on sessions ((sess->>'userId'));`,
  },
  {
    id: '002-session-ended-notice',
    up: `create function notify_session_ended() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${SESSION_ENDED_CHANNEL}', old.sid);
        return null;
      end $$;
    create trigger session_ended after delete on sessions
      for each row execute function notify_session_ended();`,
  },
  {
    // A session whose expiry is brought forward (by hand, say) may end before its holder's
    // process would look again: it is named as if it ended, so that no process keeps it.
    id: '003-session-shortened-notice',
    up: `create trigger session_shortened after update of expire on sessions
      for each row when (new.expire < old.expire) execute function notify_session_ended();`,
  },
];

export interface SessionData {
  userId: string;
  signedInAt: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionData | null;
  }
  interface FastifyReply {
    /** Starts a fresh session (a new id, so a planted one is never kept) for the user. */
    signIn(userId: string): Promise<void>;
    signOut(): Promise<void>;
  }
}

export const SESSION_COOKIE = 'sid';
const TOUCH_AFTER_MS = 60_000;

/** How many sessions a process keeps in memory; past that it forgets them all and reads again. */
const REMEMBERED_SESSIONS = 10_000;

/**
 * Sessions live in PostgreSQL under the hash of their id: a copy of the table opens no session.
 *
 * A session read is kept in memory until its expiry is next due to be pushed forward (a minute),
 * and dropped the moment it ends in any process: every session that ends is named on
 * `SESSION_ENDED_CHANNEL`, and the store forgets all it keeps whenever it may have missed one (its
 * listening connection was re-established). Without that channel it reads every time.
 */
export class SessionStore {
  private readonly known = new Map<string, { sess: SessionData; expire: Date }>();
  private following: Promise<boolean> | undefined;
  /** Counts the sessions heard to end: a read that overlapped one does not keep what it read. */
  private endings = 0;

  constructor(
    private readonly sql: Sql,
    readonly idleMs: number,
  ) {}

  /** Whether ended sessions are being heard of, listening first when not yet. */
  private follow(): Promise<boolean> {
    this.following ??= this.sql
      .listen(
        SESSION_ENDED_CHANNEL,
        (key) => {
          this.endings += 1;
          this.known.delete(key);
        },
        () => {
          this.endings += 1;
          this.known.clear();
        },
      )
      .then(
        () => true,
        () => {
          this.following = undefined;
          return false;
        },
      );
    return this.following;
  }

  private keep(key: string, sess: SessionData, expire: Date): void {
    if (this.known.size >= REMEMBERED_SESSIONS) this.known.clear();
    this.known.set(key, { sess, expire });
  }

  async create(userId: string, now = new Date()): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const sess: SessionData = { userId, signedInAt: now.toISOString() };
    await this.sql`
      insert into sessions (sid, sess, expire)
      values (${hash(id)}, ${this.sql.json(sess as never)}, ${new Date(now.getTime() + this.idleMs)})`;
    return id;
  }

  /** The live session for an id, its idle expiry pushed forward; null when unknown or expired. */
  async read(id: string, now = new Date()): Promise<SessionData | null> {
    const key = hash(id);
    const due = (expire: Date) => expire.getTime() - now.getTime() < this.idleMs - TOUCH_AFTER_MS;
    const following = await this.follow();
    const known = following ? this.known.get(key) : undefined;
    if (known && known.expire > now && !due(known.expire)) return known.sess;
    const endings = this.endings;
    const [row] = await this.sql<{ sess: SessionData; expire: Date }[]>`
      select sess, expire from sessions where sid = ${key}`;
    if (!row) {
      this.known.delete(key);
      return null;
    }
    if (row.expire <= now) {
      await this.destroy(id);
      return null;
    }
    let expire = row.expire;
    if (due(expire)) {
      expire = new Date(now.getTime() + this.idleMs);
      await this.sql`update sessions set expire = ${expire} where sid = ${key}`;
    }
    if (following && endings === this.endings) this.keep(key, row.sess, expire);
    return row.sess;
  }

  async destroy(id: string): Promise<void> {
    await this.sql`delete from sessions where sid = ${hash(id)}`;
    this.forget((key) => key === hash(id));
  }

  /** Ends every session of a user, but the one given (their own, after a password change). */
  async destroyAllFor(userId: string, except?: string): Promise<void> {
    await this.sql`
      delete from sessions
      where sess->>'userId' = ${userId} and sid <> ${except ? hash(except) : ''}`;
    this.forget((_, sess) => sess.userId === userId);
  }

  /** Drops the kept sessions that ended here, and keeps a read that overlapped them from keeping its own. */
  private forget(ended: (key: string, sess: SessionData) => boolean): void {
    this.endings += 1;
    for (const [key, { sess }] of this.known) if (ended(key, sess)) this.known.delete(key);
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.sql`delete from sessions where expire <= ${now}`;
  }

  /** Which of these sessions (by `sessionKey`) are still live, without pushing their expiry forward. */
  async live(keys: string[], now = new Date()): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.sql<{ sid: string }[]>`
      select sid from sessions where sid = any(${keys}) and expire > ${now}`;
    return new Set(rows.map((row) => row.sid));
  }

  /**
   * Calls `onEnded` with the key of every session that ends from now on, in any process; the
   * returned function stops listening.
   */
  async watchEnded(onEnded: (key: string) => void): Promise<() => Promise<void>> {
    const { unlisten } = await this.sql.listen(SESSION_ENDED_CHANNEL, onEnded);
    return unlisten;
  }
}

/** What a session is known by outside its cookie: the hash of its id. */
export function sessionKey(id: string): string {
  return digestOf('sha256', id, 'base64url');
}

const hash = sessionKey;

export interface SessionOptions {
  store: SessionStore;
}

function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

/** Reads the session cookie on every request and gives replies signIn and signOut. */
export const sessions = fp(
  async (app: FastifyInstance, { store }: SessionOptions) => {
    await app.register(cookie);
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      const id = request.cookies[SESSION_COOKIE];
      request.session = id ? await store.read(id) : null;
    });
    app.decorateReply('signIn', async function (this: FastifyReply, userId: string) {
      const old = this.request.cookies[SESSION_COOKIE];
      if (old) await store.destroy(old);
      const id = await store.create(userId);
      this.request.session = await store.read(id);
      this.setCookie(SESSION_COOKIE, id, cookieOptions(this.request));
    });
    app.decorateReply('signOut', async function (this: FastifyReply) {
      const id = this.request.cookies[SESSION_COOKIE];
      if (id) await store.destroy(id);
      this.request.session = null;
      this.clearCookie(SESSION_COOKIE, cookieOptions(this.request));
    });
  },
  { name: 'sessions' },
);
