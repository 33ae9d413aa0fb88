import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChainKey } from '@shiftcover/eventstore';
import type { Config, Logger } from '@shiftcover/platform';

const KEY_FILE = 'audit-chain.key';

/**
 * The audit chain key (docs/operations.md §8): `AUDIT_CHAIN_KEY`, or its earlier name `SESSION_SECRET`.
 * Without either, the embedded setup keeps a random key in `DATA_DIR/audit-chain.key`, readable by
 * its owner only, made at the first start; against an outside database (`DATABASE_URL`) there is
 * no such place all services share, so events are chained unkeyed and a warning says so.
 */
export async function auditChainKey(config: Config, logger: Logger): Promise<ChainKey | undefined> {
  const given = config.AUDIT_CHAIN_KEY || config.SESSION_SECRET;
  if (given) return Buffer.from(given, 'utf8');
  if (config.DATABASE_URL) {
    logger.warn(
      'AUDIT_CHAIN_KEY is not set: the audit hash chain is unkeyed, so whoever can write the database can rewrite history unnoticed',
    );
    return undefined;
  }
  const file = path.resolve(config.DATA_DIR, KEY_FILE);
  const stored = await readKey(file);
  if (stored) return stored;
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process (the CLI, a second server) made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const made = await readKey(file);
  if (!made) throw new Error(`${file} holds no audit chain key`);
  return made;
}

async function readKey(file: string): Promise<ChainKey | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text ? Buffer.from(text, 'hex') : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
