import type { SlaCalendar, SlaPolicy, User } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const admin = testUser({ id: 1, name: 'Root Admin', email: 'root@example.com', role: 'admin' });
const agent = testUser({ id: 2, name: 'Agent Smith', email: 'smith@example.com', role: 'agent' });
const berlin: SlaCalendar = {
  id: 7,
  name: 'Berlin office',
  timeZone: 'Europe/Berlin',
  hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  holidays: [{ date: '2026-12-25', name: 'Christmas' }],
};
const none = { firstResponseMinutes: null, resolutionMinutes: null };
const policy = (id: number, name: string, extra: Partial<SlaPolicy> = {}): SlaPolicy => ({
  id,
  name,
  position: id,
  calendarId: 7,
  requesterDomains: [],
  targets: { urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 }, high: none, medium: none, low: none },
  warnBeforeMinutes: 30,
  active: true,
  ...extra,
});

const openPage = (routes: Parameters<typeof fakeServer>[0], user: User = admin) => {
  const server = fakeServer({ 'GET /auth/verify': { body: { success: true, user } }, ...routes });
  renderApp('/service-levels', { user });
  return server;
};
const lists = (policies: SlaPolicy[], calendars: SlaCalendar[] = [berlin]) => ({
  'GET /sla/calendars': { body: { success: true, calendars } },
  'GET /sla/policies': { body: { success: true, policies } },
});

describe('/service-levels', () => {
  beforeEach(() => notifications.clean());

  it('tells an agent they may not be here', async () => {
    openPage(lists([]), agent);
    expect(await screen.findByText(/You don't have permission to access this page/)).toBeInTheDocument();
  });

  it('lists policies in order with their calendar and targets, and calendars with their hours', async () => {
    openPage(lists([policy(1, 'VIP', { requesterDomains: ['example.com'] }), policy(2, 'Standard', { calendarId: null, active: false })]));
    const policies = await screen.findByRole('region', { name: 'SLA policies' });
    expect(await within(policies).findByText('1. VIP')).toBeInTheDocument();
    expect(within(policies).getByText('Berlin office · example.com')).toBeInTheDocument();
    expect(within(policies).getByText('Around the clock · Everyone')).toBeInTheDocument();
    expect(within(policies).getAllByText('Urgent 1 h / 8 h')).toHaveLength(2);
    expect(within(policies).getByText('Inactive')).toBeInTheDocument();
    expect(within(policies).getByRole('button', { name: 'Move VIP up' })).toBeDisabled();
    const calendars = screen.getByRole('region', { name: 'Business calendars' });
    expect(within(calendars).getByText('Europe/Berlin · Mon–Fri 09:00–17:00 · 1 holiday')).toBeInTheDocument();
  });

  it('moves a policy down by sending the whole new order', async () => {
    const server = openPage({
      ...lists([policy(1, 'VIP'), policy(2, 'Standard')]),
      'PUT /sla/policies/order': { body: { success: true, policies: [policy(2, 'Standard'), policy(1, 'VIP')] } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Move VIP down' }));
    expect(await screen.findByText('1. Standard')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /sla/policies/order')?.body).toEqual({ ids: [2, 1] });
  });

  it('adds a calendar from the weekly editor and shows the server refusing overlapping hours', async () => {
    const server = openPage({
      ...lists([], []),
      'POST /sla/calendars': ({ body }) => {
        const hours = (body as SlaCalendar).hours;
        return hours.length > 5
          ? { status: 201, body: { success: true, calendar: { ...(body as SlaCalendar), id: 9 } } }
          : { status: 400, body: { success: false, message: 'Opening hours of one day must not overlap' } };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add Calendar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Calendar' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Support desk');
    // Mon–Fri 09:00–17:00 is there to start with; Saturday gets a morning.
    expect(within(dialog).getAllByLabelText(/opens$/)).toHaveLength(5);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add opening hours on Saturday' }));
    const saturday = within(dialog).getByLabelText('Saturday closes');
    await userEvent.clear(saturday);
    await userEvent.type(saturday, '12:00');
    // A closing time before the opening is caught before anything is sent.
    const monday = within(dialog).getByLabelText('Monday closes');
    await userEvent.clear(monday);
    await userEvent.type(monday, '08:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Calendar' }));
    expect(await within(dialog).findByText('Opening hours must be HH:MM-HH:MM with the end after the start')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'POST /sla/calendars')).toBe(false);

    await userEvent.clear(monday);
    await userEvent.type(monday, '17:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Calendar' }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /sla/calendars')).toBe(true));
    const sent = server.calls.find((c) => c.key === 'POST /sla/calendars')?.body as SlaCalendar;
    expect(sent.name).toBe('Support desk');
    expect(sent.hours).toContainEqual({ day: 6, start: '09:00', end: '12:00' });
  });

  it('sends a policy with empty targets as none', async () => {
    const server = openPage({
      ...lists([]),
      'POST /sla/policies': ({ body }) => ({
        status: 201,
        body: { success: true, policy: { ...(body as SlaPolicy), id: 3, position: 1 } },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Policy' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Standard');
    await userEvent.type(within(dialog).getByLabelText('Urgent first response minutes'), '60');
    await userEvent.type(within(dialog).getByLabelText('Urgent resolution minutes'), '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Policy' }));
    expect(await within(dialog).findByText(/The resolution target must not be shorter than the first response target/)).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Urgent resolution minutes'));
    await userEvent.type(within(dialog).getByLabelText('Urgent resolution minutes'), '480');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Policy' }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /sla/policies')).toBe(true));
    const sent = server.calls.find((c) => c.key === 'POST /sla/policies')?.body as SlaPolicy;
    expect(sent).toMatchObject({ name: 'Standard', calendarId: 7, warnBeforeMinutes: 30, active: true });
    expect(sent.targets.urgent).toEqual({ firstResponseMinutes: 60, resolutionMinutes: 480 });
    expect(sent.targets.low).toEqual(none);
  });
});
