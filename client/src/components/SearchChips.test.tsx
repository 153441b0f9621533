import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../App';
import { createQueryClient } from '../api/queryClient';
import { agentQueryAtom } from '../state/agentQuery';
import { store } from '../state/store';
import { fakeServer } from '../test-utils/fakeServer';
import { renderApp } from '../test-utils/renderApp';
import { agent, allowForLazyPages, listBody, statsBody } from '../test-utils/ticketFixtures';
import { SearchChips } from './SearchChips';

allowForLazyPages();

function Box({ initial, onChange }: { initial: string; onChange: (text: string) => void }) {
  return (
    <AppProviders queryClient={createQueryClient()}>
      <SearchChips text={initial} onChange={onChange} />
    </AppProviders>
  );
}

beforeEach(() => store.set(agentQueryAtom, { ...store.get(agentQueryAtom), search: undefined }));

describe('search chips', () => {
  it('shows each parsed filter and each text term as a removable chip; an unknown key says it is searched as text', async () => {
    const changes: string[] = [];
    render(<Box initial="status:open printer colour:red tag:VPN" onChange={(text) => changes.push(text)} />);
    const chips = within(screen.getByRole('list', { name: 'Search terms' })).getAllByRole('listitem');
    expect(chips.map((chip) => chip.textContent)).toEqual([
      'Status: open',
      'Text: printer',
      '“colour:red” (unknown filter, searched as text)',
      'Tag: vpn',
    ]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove Status: open' }));
    expect(changes).toEqual(['printer colour:red tag:VPN']);
  });

  it('reads the queue’s search box and takes a removed chip’s term out of the search sent', async () => {
    const server = fakeServer({
      'GET /auth/verify': { body: { success: true, user: agent } },
      'GET /tickets/stats': statsBody(),
      'GET /tickets': listBody([]),
      'GET /users/staff': { body: { success: true, staff: [] } },
      'GET /views': { body: { success: true, views: [] } },
      'GET /views/counts': { body: { success: true, counts: {} } },
    });
    renderApp('/agent-dashboard', { user: agent });
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Search' }), 'requester:ann@example.com printer');
    expect(await screen.findByText('Requester: ann@example.com')).toBeInTheDocument();
    const searches = () =>
      server.calls
        .filter((c) => c.key.startsWith('GET /tickets?'))
        .map((c) => new URL(c.key.slice(4), 'http://x').searchParams.get('search'));
    await waitFor(() => expect(searches().at(-1)).toBe('requester:ann@example.com printer'));
    await user.click(screen.getByRole('button', { name: 'Remove Text: printer' }));
    await waitFor(() => expect(searches().at(-1)).toBe('requester:ann@example.com'));
  });
});
