/**
 * The values of the most recently used keys, at most `limit` of them and, when values are weighed,
 * about `weights.limit` of weight: new ones go to a current map, and once it holds half the limit
 * (of keys or of weight) the previous map is dropped whole and the current one becomes it; a key
 * found only in the previous map is brought back to the current one.
 *
 * A `Map` kept in order of use by deleting a key and setting it again gets slow in V8 once it
 * holds thousands of keys (each delete leaves a slot the map must later sweep), and this is on the
 * path of every request; here a key is never deleted to be moved.
 *
 * Weighed, the held weight stays under the weight limit and one heaviest value's weight more: each
 * map is let go once it holds half the limit. A value's weight is the one it had when it was set.
 */
export class Recent<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private currentWeight = 0;
  private previousWeight = 0;

  constructor(
    private readonly limit: number,
    private readonly weights?: { limit: number; of(value: V): number },
  ) {}

  get(key: K): V | undefined {
    if (this.current.has(key)) return this.current.get(key);
    if (!this.previous.has(key)) return undefined;
    const value = this.previous.get(key)!;
    this.keep(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.current.has(key)) {
      this.currentWeight += this.weigh(value) - this.weigh(this.current.get(key)!);
      this.current.set(key, value);
      this.rotateWhenFull();
    } else this.keep(key, value);
  }

  delete(key: K): void {
    if (this.current.has(key)) this.currentWeight -= this.weigh(this.current.get(key)!);
    if (this.previous.has(key)) this.previousWeight -= this.weigh(this.previous.get(key)!);
    this.current.delete(key);
    this.previous.delete(key);
  }

  /** How many values are held, counting a key in both maps once for each. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The weight of the values held, as `size` counts them; 0 when values are not weighed. */
  get weight(): number {
    return this.currentWeight + this.previousWeight;
  }

  private weigh(value: V): number {
    return this.weights?.of(value) ?? 0;
  }

  private keep(key: K, value: V): void {
    // The previous map's value of a key is shadowed by the current one's, and goes with its map.
    this.current.set(key, value);
    this.currentWeight += this.weigh(value);
    this.rotateWhenFull();
  }

  private rotateWhenFull(): void {
    const full =
      this.current.size >= Math.max(1, Math.floor(this.limit / 2)) ||
      (this.weights !== undefined && this.currentWeight >= this.weights.limit / 2);
    if (!full) return;
    this.previous = this.current;
    this.previousWeight = this.currentWeight;
    this.current = new Map();
    this.currentWeight = 0;
  }
}
