/**
 * The values of the most recently used keys, at most `limit` of them: new ones go to a current
 * map, and once it holds half the limit the previous map is dropped whole and the current one
 * becomes it; a key found only in the previous map is brought back to the current one.
 *
 * A `Map` kept in order of use by deleting a key and setting it again gets slow in V8 once it
 * holds thousands of keys (each delete leaves a slot the map must later sweep), and this is on the
 * path of every request; here a key is never deleted to be moved.
 */
export class Recent<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    if (this.current.has(key)) return this.current.get(key);
    if (!this.previous.has(key)) return undefined;
    const value = this.previous.get(key)!;
    this.keep(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.current.has(key)) this.current.set(key, value);
    else this.keep(key, value);
  }

  delete(key: K): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  /** How many values are held, counting a key in both maps once for each. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private keep(key: K, value: V): void {
    // The previous map's value of a key is shadowed by the current one's, and goes with its map.
    this.current.set(key, value);
    if (this.current.size >= Math.max(1, Math.floor(this.limit / 2))) {
      this.previous = this.current;
      this.current = new Map();
    }
  }
}
