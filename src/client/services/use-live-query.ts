/**
 * `useLiveQuery` without dexie-react-hooks: a Dexie live query of the signed-in user's database
 * behind `useSyncExternalStore`. `key` names what the query reads (it restarts when the key
 * changes); the snapshot is `fallback` until the first answer and while nobody is signed in.
 */
import { useMemo, useRef, useSyncExternalStore } from 'react';
import { type LocalDb, watchLocal } from './local-db.ts';

export function useLiveQuery<T>(key: string, query: (db: LocalDb) => Promise<T>, fallback: T): T {
  const queryRef = useRef(query);
  queryRef.current = query;
  const fallbackRef = useRef(fallback);
  const store = useMemo(() => {
    let value = fallbackRef.current;
    return {
      key,
      subscribe(listener: () => void) {
        return watchLocal(
          (db) => queryRef.current(db),
          (next) => {
            value = next;
            listener();
          },
        );
      },
      getSnapshot: () => value,
    };
  }, [key]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
