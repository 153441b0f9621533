import { MESSAGES, type CsatSurvey } from '@helpdesk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { applyCsatReceived } from '../../api/ticketCache';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { aDetail, agent, allowForLazyPages, detailBody, owner, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const survey: CsatSurvey = { ticketId: 7, title: 'Printer jams', rating: 'bad', comment: 'Slow', expiresAt: '2030-01-01T00:00:00.000Z' };

describe('the rating on the ticket page', () => {
  it('offers the owner of a resolved ticket the three choices with their last answer, sent with the session', async () => {
    const server = fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(aDetail({ status: 'resolved' })),
      'GET /tickets/7/csat': { body: { success: true, survey } },
      'POST /tickets/7/csat': { body: { success: true, message: MESSAGES.csat.thanks } },
    });
    renderApp('/ticket/7', { user: owner });
    const section = await screen.findByRole('region', { name: 'Rate Our Support' });
    expect(within(section).getByRole('radio', { name: 'Bad' })).toBeChecked();
    expect(within(section).getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue('Slow');
    const user = userEvent.setup();
    await user.click(within(section).getByRole('radio', { name: 'Good' }));
    await user.click(within(section).getByRole('button', { name: 'Send' }));
    expect(await within(section).findByText('Thank you for your feedback!')).toBeInTheDocument();
    const sent = server.calls.find((c) => c.key === 'POST /tickets/7/csat');
    expect(sent).toMatchObject({ body: { rating: 'good', comment: 'Slow' } });
    expect(sent!.headers.get('authorization')).toMatch(/^Bearer /);
  });

  it('shows nothing to the owner while there is no survey to answer, and never asks on an unresolved ticket', async () => {
    const server = fakeServer({
      ...verified(owner),
      'GET /tickets/7': detailBody(aDetail({ status: 'resolved' })),
      'GET /tickets/7/csat': { body: { success: true, survey: null } },
    });
    renderApp('/ticket/7', { user: owner });
    await screen.findByRole('heading', { name: /Printer/ });
    await screen.findByText(/Replying will reopen/);
    expect(screen.queryByRole('region', { name: 'Rate Our Support' })).not.toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'GET /tickets/7/csat')).toBe(true);
  });

  it('shows staff the received rating, and a new one live (csat-received)', async () => {
    const queryClient = createQueryClient();
    const server = fakeServer({ ...verified(agent), 'GET /tickets/7': detailBody(aDetail({ status: 'resolved', csat: null })) });
    renderApp('/ticket/7', { user: agent, queryClient });
    await screen.findByRole('link', { name: 'Update Status' });
    expect(screen.queryByRole('region', { name: 'Customer Rating' })).not.toBeInTheDocument();
    act(() =>
      applyCsatReceived(queryClient, { ticketId: 7, csat: { rating: 'good', comment: 'Quick and kind', at: '2026-11-20T10:00:00.000Z' } }),
    );
    const section = await screen.findByRole('region', { name: 'Customer Rating' });
    expect(within(section).getByText('Good')).toBeInTheDocument();
    expect(within(section).getByText('Quick and kind')).toBeInTheDocument();
    // Staff never get the owner's choices, and ask nothing about a survey.
    expect(screen.queryByRole('radio', { name: 'Good' })).not.toBeInTheDocument();
    expect(server.calls.some((c) => c.key.includes('/csat'))).toBe(false);
  });
});
