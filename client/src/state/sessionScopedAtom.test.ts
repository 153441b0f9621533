import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { testUser } from '../test-utils/renderApp';
import { sessionAtom } from './session';
import { sessionScopedAtom } from './sessionScopedAtom';

describe('sessionScopedAtom', () => {
  it('keeps a value for the account that set it and starts clean for the next one', () => {
    const store = createStore();
    const filter = sessionScopedAtom('');
    store.set(sessionAtom, { token: 'a', user: testUser({ id: 1 }) });
    store.set(filter, 'printer');
    expect(store.get(filter)).toBe('printer');

    store.set(sessionAtom, null);
    expect(store.get(filter)).toBe('');
    store.set(sessionAtom, { token: 'b', user: testUser({ id: 2 }) });
    expect(store.get(filter)).toBe('');
    store.set(sessionAtom, { token: 'c', user: testUser({ id: 1 }) });
    expect(store.get(filter)).toBe('printer');
  });
});
