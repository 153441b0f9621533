import { DEFAULT_TICKET_QUERY, ticketQueryToUrl, type TicketQuery } from '@helpdesk/protocol';
import { act, render, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { useSyncExternalStore } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { agentQueryAtom } from '../../state/agentQuery';
import { sessionAtom } from '../../state/session';
import { testUser } from '../../test-utils/renderApp';
import { useQueryInUrl } from './queries';

/**
 * An address that shows each write only when told to: a browser may render the page again, with
 * further changes to the query, before the address it was sent to shows.
 */
function deferredAddress() {
  let search = '';
  const pending: string[] = [];
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const show = (next: string) => {
    search = next;
    for (const listener of listeners) listener();
  };
  const useAddressSearch = () => useSyncExternalStore(subscribe, () => search);
  return {
    pending,
    get search() {
      return search;
    },
    searchHook: useAddressSearch,
    hook: () =>
      [
        '/agent-dashboard',
        (to: string) => {
          pending.push(to.split('?')[1] ?? '');
        },
      ] as [string, (to: string) => void],
    showNext: () => show(pending.shift()!),
    /** A link, Back or Forward: an address nobody on the page wrote. */
    move: show,
  };
}

/** Lets a read of the address (a dynamic import, loaded before the tests, then the atom) land, if one was started. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));

function Probe() {
  useQueryInUrl();
  return null;
}

describe('the queue query in the address', () => {
  // The hook loads its address reader on first use; loaded here, a read lands within `settle` even
  // on a busy machine, so a read that should not happen cannot hide behind a slow import.
  beforeAll(() => import('./queryFromUrl'));

  const start = () => {
    const store = createStore();
    store.set(sessionAtom, { token: 'token', user: testUser({ role: 'agent' }) });
    const address = deferredAddress();
    render(
      <Provider store={store}>
        <Router hook={address.hook} searchHook={address.searchHook}>
          <Probe />
        </Router>
      </Provider>,
    );
    return { store, address };
  };
  const byPriority: TicketQuery = { ...DEFAULT_TICKET_QUERY, priority: 'high' };
  const searched: TicketQuery = { ...byPriority, search: 'toner' };

  it('keeps the newer query when its first write shows in the address after a second change', async () => {
    const { store, address } = start();
    // A filter picked, then the search box settling, before the address shows either.
    act(() => store.set(agentQueryAtom, byPriority));
    act(() => store.set(agentQueryAtom, searched));
    expect(address.pending).toEqual([ticketQueryToUrl(byPriority), ticketQueryToUrl(searched)]);

    act(() => address.showNext());
    await settle();
    expect(store.get(agentQueryAtom)).toEqual(searched);

    while (address.pending.length > 0) act(() => address.showNext());
    await settle();
    expect(address.search).toBe(ticketQueryToUrl(searched));
    expect(store.get(agentQueryAtom)).toEqual(searched);
  });

  it('still takes an address that moved by itself', async () => {
    const { store, address } = start();
    act(() => store.set(agentQueryAtom, searched));
    act(() => address.showNext());
    await settle();
    const low: TicketQuery = { ...DEFAULT_TICKET_QUERY, priority: 'low' };
    act(() => address.move(ticketQueryToUrl(low)));
    await waitFor(() => expect(store.get(agentQueryAtom).priority).toBe('low'));
    expect(store.get(agentQueryAtom).search).toBeUndefined();
  });
});
