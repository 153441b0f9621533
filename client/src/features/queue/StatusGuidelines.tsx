import type { TicketStatus } from '@helpdesk/protocol';
import { Fragment } from 'react';
import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { StatusChip } from '../../components/TicketChips';
import classes from './StatusGuidelines.module.css';

const GUIDELINES: { status: TicketStatus; text: string }[] = [
  { status: 'open', text: 'The ticket is waiting for an agent. Nobody has started on it yet.' },
  { status: 'in_progress', text: 'An agent is working on it: investigating, waiting on a fix, or in contact with the user.' },
  {
    status: 'pending',
    text: 'Support asked the customer something and waits for the answer; the SLA clock stops. Their reply reopens it.',
  },
  { status: 'resolved', text: 'The issue is fixed. Say what was done in the resolution notes so the user can check it.' },
];

/** The update screen's reminder of what each status means (docs/product.md#agent-update-screen). */
export function StatusGuidelines() {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="status-guidelines-title">
      <Group gap="xs" mb="sm">
        <ThemeIcon variant="light" size="md" radius="xl">
          <IconInfoCircle size={18} />
        </ThemeIcon>
        <Text fw={700} id="status-guidelines-title">
          Status Guidelines
        </Text>
      </Group>
      <div className={classes.list}>
        {GUIDELINES.map(({ status, text }) => (
          <Fragment key={status}>
            <StatusChip status={status} fullWidth />
            <Text size="sm">{text}</Text>
          </Fragment>
        ))}
      </div>
    </Paper>
  );
}
