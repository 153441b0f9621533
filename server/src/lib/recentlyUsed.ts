/** A map of at most `size` entries that drops the least recently used first; reading an entry uses it. */
export function createRecentlyUsed<K, V>(size: number) {
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  const entries = new Map<K, V>();
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key: K, value: V): void {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > size) entries.delete(entries.keys().next().value as K);
    },
    delete(key: K): void {
      entries.delete(key);
    },
  };
}
