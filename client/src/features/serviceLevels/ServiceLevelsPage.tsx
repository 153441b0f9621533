import { PRIORITIES, canManageUsers, type SlaCalendar, type SlaPolicy } from '@helpdesk/protocol';
import { ActionIcon, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCalendarPlus, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { confirmDelete } from '../../lib/confirmDelete';
import { userAtom } from '../../state/session';
import { CalendarDialog, type CalendarDialogState } from './CalendarDialog';
import { PolicyDialog, type PolicyDialogState } from './PolicyDialog';
import { PRIORITY_LABELS, SLA_TEXT, WEEK, durationText } from './texts';
import { useCalendars, useDeleteCalendar, useDeletePolicy, usePolicies, useReorderPolicies } from './useSlaData';

function Section({ title, hint, action, children }: { title: string; hint: string; action: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
        <div style={{ flex: '1 1 20rem' }}>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {hint}
          </Text>
        </div>
        {action}
      </Group>
      {children}
    </Card>
  );
}

const Loading = () => (
  <Stack gap="sm">
    {[0, 1].map((row) => (
      <Skeleton key={row} height={48} radius="sm" />
    ))}
  </Stack>
);

/** "Mon–Fri 09:00–17:00" where the weekdays share their hours, else day by day. */
function hoursSummary({ hours }: SlaCalendar): string {
  const byDay = WEEK.map(({ day, name }) => ({
    name: name.slice(0, 3),
    text: hours
      .filter((h) => h.day === day)
      .sort((a, b) => a.start.localeCompare(b.start))
      .map((h) => `${h.start}–${h.end}`)
      .join(', '),
  })).filter((d) => d.text);
  const runs: { from: string; to: string; text: string }[] = [];
  for (const d of byDay) {
    const last = runs.at(-1);
    if (last?.text === d.text) last.to = d.name;
    else runs.push({ from: d.name, to: d.name, text: d.text });
  }
  return runs.map((r) => `${r.from === r.to ? r.from : `${r.from}–${r.to}`} ${r.text}`).join('; ');
}

function CalendarRow({ calendar, onEdit }: { calendar: SlaCalendar; onEdit: () => void }) {
  const remove = useDeleteCalendar();
  return (
    <Group justify="space-between" wrap="nowrap" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <div style={{ minWidth: 0 }}>
        <Text fw={600}>{calendar.name}</Text>
        <Text size="sm" c="dimmed">
          {calendar.timeZone} · {hoursSummary(calendar)}
          {calendar.holidays.length > 0 && ` · ${calendar.holidays.length} ${calendar.holidays.length === 1 ? 'holiday' : 'holidays'}`}
        </Text>
      </div>
      <Group gap={4} wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={`Edit ${calendar.name}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete ${calendar.name}`}
          onClick={() =>
            confirmDelete({
              title: `Delete ${calendar.name}?`,
              question: SLA_TEXT.confirmCalendar,
              onConfirm: () => remove.mutate(calendar),
            })
          }
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
    </Group>
  );
}

function PolicyRow(props: { policy: SlaPolicy; calendars: SlaCalendar[]; order: number[]; index: number; onEdit: () => void }) {
  const { policy, calendars, order, index, onEdit } = props;
  const remove = useDeletePolicy();
  const reorder = useReorderPolicies();
  const move = (by: -1 | 1) => {
    const ids = [...order];
    [ids[index], ids[index + by]] = [ids[index + by] as number, ids[index] as number];
    reorder.mutate(ids);
  };
  const calendar = calendars.find((c) => c.id === policy.calendarId);
  const targets = [...PRIORITIES]
    .reverse()
    .filter((p) => policy.targets[p].firstResponseMinutes !== null || policy.targets[p].resolutionMinutes !== null)
    .map(
      (p) =>
        `${PRIORITY_LABELS[p]} ${durationText(policy.targets[p].firstResponseMinutes)} / ${durationText(policy.targets[p].resolutionMinutes)}`,
    );
  return (
    <Group justify="space-between" wrap="nowrap" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Stack gap={0}>
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={`Move ${policy.name} up`}
            disabled={index === 0 || reorder.isPending}
            onClick={() => move(-1)}
          >
            <IconArrowUp size={14} />
          </ActionIcon>
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={`Move ${policy.name} down`}
            disabled={index === order.length - 1 || reorder.isPending}
            onClick={() => move(1)}
          >
            <IconArrowDown size={14} />
          </ActionIcon>
        </Stack>
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>
              {index + 1}. {policy.name}
            </Text>
            {!policy.active && (
              <Badge color="gray" variant="light">
                {SLA_TEXT.inactive}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {calendar?.name ?? SLA_TEXT.aroundTheClock} ·{' '}
            {policy.requesterDomains.length ? policy.requesterDomains.join(', ') : SLA_TEXT.everyone}
          </Text>
          <Text size="sm">{targets.length ? targets.join(' · ') : 'No targets'}</Text>
        </div>
      </Group>
      <Group gap={4} wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={`Edit ${policy.name}`} onClick={onEdit}>
          <IconPencil size={18} />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete ${policy.name}`}
          onClick={() =>
            confirmDelete({ title: `Delete ${policy.name}?`, question: SLA_TEXT.confirmPolicy, onConfirm: () => remove.mutate(policy) })
          }
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
    </Group>
  );
}

/** Business calendars and SLA policies, for admins (docs/product.md#service-levels). */
export default function ServiceLevelsPage() {
  const me = useAtomValue(userAtom);
  const calendars = useCalendars();
  const policies = usePolicies();
  const [calendarDialog, setCalendarDialog] = useState<CalendarDialogState>({ opened: false, calendar: null, opening: 0 });
  const [policyDialog, setPolicyDialog] = useState<PolicyDialogState>({ opened: false, policy: null, opening: 0 });
  if (!me || !canManageUsers(me)) return <NoPermission />;

  const openCalendar = (calendar: SlaCalendar | null) =>
    setCalendarDialog((last) => ({ opened: true, calendar, opening: last.opening + 1 }));
  const openPolicy = (policy: SlaPolicy | null) => setPolicyDialog((last) => ({ opened: true, policy, opening: last.opening + 1 }));
  const order = policies.data?.map((p) => p.id) ?? [];

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {SLA_TEXT.title}
        </Title>
        <Text c="dimmed" size="sm">
          {SLA_TEXT.intro}
        </Text>
      </div>

      <Section
        title={SLA_TEXT.policies}
        hint={SLA_TEXT.policiesHint}
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => openPolicy(null)} disabled={!calendars.data}>
            {SLA_TEXT.addPolicy}
          </Button>
        }
      >
        {policies.isPending ? (
          <Loading />
        ) : policies.isError ? (
          <ErrorAlert message={SLA_TEXT.loadFailed} error={policies.error} />
        ) : policies.data.length === 0 ? (
          <EmptyState title={SLA_TEXT.noPolicies} description="Add a policy to give tickets response and resolution deadlines." />
        ) : (
          policies.data.map((policy, index) => (
            <PolicyRow
              key={policy.id}
              policy={policy}
              calendars={calendars.data ?? []}
              order={order}
              index={index}
              onEdit={() => openPolicy(policy)}
            />
          ))
        )}
      </Section>

      <Section
        title={SLA_TEXT.calendars}
        hint={SLA_TEXT.calendarsHint}
        action={
          <Button leftSection={<IconCalendarPlus size={18} />} variant="light" onClick={() => openCalendar(null)}>
            {SLA_TEXT.addCalendar}
          </Button>
        }
      >
        {calendars.isPending ? (
          <Loading />
        ) : calendars.isError ? (
          <ErrorAlert message={SLA_TEXT.loadFailed} error={calendars.error} />
        ) : calendars.data.length === 0 ? (
          <EmptyState title={SLA_TEXT.noCalendars} description="Without a calendar, deadlines count around the clock." />
        ) : (
          calendars.data.map((calendar) => <CalendarRow key={calendar.id} calendar={calendar} onEdit={() => openCalendar(calendar)} />)
        )}
      </Section>

      <CalendarDialog state={calendarDialog} onClose={() => setCalendarDialog((last) => ({ ...last, opened: false }))} />
      <PolicyDialog
        state={policyDialog}
        calendars={calendars.data ?? []}
        onClose={() => setPolicyDialog((last) => ({ ...last, opened: false }))}
      />
    </Stack>
  );
}
