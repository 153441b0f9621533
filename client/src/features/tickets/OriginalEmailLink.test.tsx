import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { aComment, aDetail, agent, allowForLazyPages, detailBody, owner, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();
afterEach(() => vi.restoreAllMocks());

/** A ticket made from a mail, with the owner's mailed reply and an agent's web reply. */
const mailed = () =>
  aDetail({
    inboundMessageId: 40,
    comments: [
      aComment({ id: 1, author: { id: owner.id, name: owner.name, role: 'user' }, content: 'Still jamming.', inboundMessageId: 41 }),
      aComment({ id: 2, content: 'Sending a technician.' }),
    ],
  });

describe('original email on the ticket page', () => {
  it('gives staff a "Download original email" link on what came by mail, saved with the session', async () => {
    const server = fakeServer({
      ...verified(agent),
      'GET /tickets/7': detailBody(mailed()),
      'GET /canned-responses': { body: { success: true, cannedResponses: [] } },
      'GET /email/inbound/41/raw': { body: 'From: ada@example.com' },
    });
    renderApp('/ticket/7', { user: agent });
    await screen.findByRole('heading', { name: /Printer is on fire/ });

    const [fromMail, fromWeb] = screen.getAllByTestId('comment');
    const link = within(fromMail!).getByRole('link', { name: 'Download original email' });
    expect(link).toHaveAttribute('href', '/api/email/inbound/41/raw');
    expect(within(fromWeb!).queryByRole('link', { name: 'Download original email' })).not.toBeInTheDocument();
    const description = screen.getByRole('region', { name: 'Description' });
    expect(within(description).getByRole('link', { name: 'Download original email' })).toHaveAttribute('href', '/api/email/inbound/40/raw');

    // A plain link would carry no token: the click reads the message with it, then saves it.
    const save = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:original');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    await userEvent.setup().click(link);
    await waitFor(() => expect(save).toHaveBeenCalled());
    const read = server.calls.find((c) => c.key === 'GET /email/inbound/41/raw');
    expect(read?.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('shows the owner no such link (the server sends them no inboundMessageId)', async () => {
    const { inboundMessageId: _ticket, ...ownersCopy } = mailed();
    fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody({ ...ownersCopy, comments: ownersCopy.comments.map(({ inboundMessageId: _id, ...c }) => c) }),
    });
    renderApp('/ticket/7', { user: owner });
    await screen.findByRole('heading', { name: /Printer is on fire/ });
    expect(screen.getAllByTestId('comment')).toHaveLength(2);
    expect(screen.queryByRole('link', { name: 'Download original email' })).not.toBeInTheDocument();
  });
});
