/**
 * Keeps `value` under `key` as the most recently used entry of `map` and, once `map` holds more
 * than `limit` entries, forgets its least recently used tenth in one pass. Forgetting one entry
 * per insert instead costs a walk, on every insert, over the slots the map's earlier deletions
 * left at its front, until the map next reorganises itself.
 */
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size <= limit) return;
  let excess = map.size - Math.max(1, Math.floor(limit * 0.9));
  for (const old of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(old);
  }
}
