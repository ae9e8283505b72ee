/**
 * Sets `key` in a Map used as a small cache, first dropping the oldest entry when the map is
 * full. Insertion order is the Map's own, so this is FIFO: enough for the handful of keys and
 * headers a process sees, with memory bounded whatever callers send.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (map.size >= limit) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
