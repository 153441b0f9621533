import { MESSAGES, type CsatSurvey } from '@helpdesk/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { allowForLazyPages, owner } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const TOKEN = 'a'.repeat(43);
const survey = (overrides: Partial<CsatSurvey> = {}): CsatSurvey => ({
  ticketId: 7,
  title: 'Printer jams',
  rating: null,
  comment: null,
  expiresAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
});
const surveyRoutes = (answer = survey()) => ({
  [`GET /csat/${TOKEN}`]: { body: { success: true, survey: answer } },
  [`POST /csat/${TOKEN}`]: { body: { success: true, message: MESSAGES.csat.thanks } },
});

describe('/rate/:token (the survey link)', () => {
  it('shows the ticket and the link’s rating chosen, and records nothing until Send', async () => {
    const server = fakeServer(surveyRoutes());
    renderApp(`/rate/${TOKEN}?rating=bad`);
    expect(await screen.findByText('Ticket #7: Printer jams')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Rate Our Support' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: /How did we do\?/ })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Bad' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Good' })).not.toBeChecked();
    expect(server.calls.map((c) => c.key)).toEqual([`GET /csat/${TOKEN}`]);
    // Without a session: the link is the key.
    expect(server.calls[0]!.headers.get('authorization')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Neutral' }));
    await user.type(screen.getByRole('textbox', { name: 'Comment (optional)' }), 'Took two days');
    expect(screen.getByText('13 / 2000 characters')).toBeInTheDocument();
    expect(server.calls).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Thank you for your feedback!')).toBeInTheDocument();
    expect(server.calls[1]).toMatchObject({ key: `POST /csat/${TOKEN}`, body: { rating: 'neutral', comment: 'Took two days' } });

    // The answer may be changed: the form comes back with what was sent.
    await user.click(screen.getByRole('button', { name: 'Change my answer' }));
    expect(screen.getByRole('radio', { name: 'Neutral' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue('Took two days');
  });

  it('shows the last answer when the link names no rating, and asks for one when there is none', async () => {
    fakeServer(surveyRoutes(survey({ rating: 'good', comment: 'Great' })));
    renderApp(`/rate/${TOKEN}`);
    expect(await screen.findByRole('radio', { name: 'Good' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue('Great');
  });

  it('refuses to send without a rating', async () => {
    const server = fakeServer(surveyRoutes());
    renderApp(`/rate/${TOKEN}?rating=excellent`);
    const send = await screen.findByRole('button', { name: 'Send' });
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked();
    await userEvent.setup().click(send);
    expect(await screen.findByText(MESSAGES.csat.ratingInvalid)).toBeInTheDocument();
    expect(server.calls).toHaveLength(1);
  });

  it('says when the link is invalid or expired', async () => {
    fakeServer({ [`GET /csat/${TOKEN}`]: { status: 404, body: { success: false, message: MESSAGES.csat.linkInvalid } } });
    renderApp(`/rate/${TOKEN}?rating=good`, { user: owner });
    expect(await screen.findByText('This survey link is invalid or has expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('shows the server’s reason when sending fails', async () => {
    fakeServer({
      ...surveyRoutes(),
      [`POST /csat/${TOKEN}`]: { status: 404, body: { success: false, message: MESSAGES.csat.linkInvalid } },
    });
    renderApp(`/rate/${TOKEN}?rating=good`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This survey link is invalid or has expired'));
  });
});
