/**
 * Lookups asked at the same moment, answered by one statement. Under load every statement costs a
 * round trip on one of the pool's connections (bench/queue-take: 100 attendants behind 10
 * connections, each round trip ~0.5 ms of the process's CPU in the socket write alone), so the
 * per-request lookups every procedure makes (session, membership) are gathered until the event
 * loop turns (setImmediate) and read together. Nothing is cached: each key is read by a statement
 * that starts after its caller asked, and a key asked twice in one batch is read once.
 */
export function batched<K, V>(read: (keys: K[]) => Promise<Map<string, V>>, keyOf: (key: K) => string): (key: K) => Promise<V | undefined> {
  let pending: Map<string, { key: K; waiters: { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[] }> | null = null;
  const flush = () => {
    const batch = pending!;
    pending = null;
    read([...batch.values()].map((b) => b.key)).then(
      (found) => {
        for (const [k, b] of batch) for (const w of b.waiters) w.resolve(found.get(k));
      },
      (err: unknown) => {
        for (const b of batch.values()) for (const w of b.waiters) w.reject(err);
      },
    );
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(flush);
      }
      const k = keyOf(key);
      const entry = pending.get(k) ?? { key, waiters: [] };
      entry.waiters.push({ resolve, reject });
      pending.set(k, entry);
    });
}

/** One batcher per database client (tests run several apps, each with its own). */
export function perDb<D extends object, K, V>(make: (db: D) => (key: K) => Promise<V | undefined>): (db: D, key: K) => Promise<V | undefined> {
  const byDb = new WeakMap<D, (key: K) => Promise<V | undefined>>();
  return (db, key) => {
    let lookup = byDb.get(db);
    if (!lookup) byDb.set(db, (lookup = make(db)));
    return lookup(key);
  };
}
