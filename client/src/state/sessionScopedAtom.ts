import { atom, type WritableAtom } from 'jotai';
import { userAtom } from './session';

/**
 * UI state that belongs to whoever is signed in (filters, page sizes): it reads as `initial` as soon
 * as another account, or nobody, is signed in, so the next person at a shared desk starts clean.
 */
export function sessionScopedAtom<T>(initial: T): WritableAtom<T, [T], void> {
  const stored = atom<{ userId: number | null; value: T }>({ userId: null, value: initial });
  return atom(
    (get) => {
      const { userId, value } = get(stored);
      return userId !== null && userId === get(userAtom)?.id ? value : initial;
    },
    (get, set, value: T) => set(stored, { userId: get(userAtom)?.id ?? null, value }),
  );
}
