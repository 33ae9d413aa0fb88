import { afterAll, beforeAll } from 'vitest';

/**
 * What `open` gives, opened (then seeded) before the calling file's tests and closed after them.
 * The answer stands for it from then on: its fields are read inside tests and hooks.
 */
export function perFile<T extends { close(): Promise<void> }>(
  open: () => Promise<T>,
  seed?: (opened: T) => Promise<void>,
): T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
    await seed?.(opened);
  });
  afterAll(() => opened?.close());
  return new Proxy({} as T, {
    get(_, key) {
      if (!opened) throw new Error(`${String(key)} is read before the file’s tests have started`);
      return Reflect.get(opened, key);
    },
  });
}
