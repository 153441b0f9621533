import type { Ticket, UserRef } from '@helpdesk/protocol';
import { Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { conflictTicketOf } from '../../api/ApiError';
import { ticketSaved } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { ConflictReview } from '../../components/collaboration/ConflictReview';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ASSIGN_FAILED, assignedMessage } from './actions';
import { useAssignableStaff } from './queueData';

const UNASSIGNED = 'none';

/**
 * The update screen's assignment: to me, to any staff member, or nobody; saved at once, apart from the
 * status form, on the version shown (a change made meanwhile by someone else answers 409 and is
 * reviewed here, as in the status form).
 */
export function AssigneeCard({ ticket, me }: { ticket: Ticket; me: UserRef }) {
  const client = useQueryClient();
  const staff = useAssignableStaff().data?.staff ?? [];
  // The ticket the change was made on, for the conflict review's "what they changed".
  const [base, setBase] = useState<Ticket>(ticket);
  const assign = useMutation({
    mutationFn: ({ agentId, on }: { agentId: number | null; on: Ticket }) =>
      ticketsApi.update(ticket.id, { assignedAgentId: agentId, expectedVersion: on.version }),
    onSuccess: ({ ticket: saved }) => {
      void ticketSaved(client, saved);
      notifySuccess(assignedMessage(saved));
    },
    onError: (error) => {
      if (!conflictTicketOf(error)) notifyError(ASSIGN_FAILED);
    },
  });
  const conflict = conflictTicketOf(assign.error);
  const choose = (agentId: number | null) => {
    setBase(ticket);
    assign.mutate({ agentId, on: ticket });
  };
  const current = ticket.assignedAgent?.id ?? null;
  const known = staff.some((person) => person.id === current);
  const options = [
    { value: UNASSIGNED, label: 'Unassigned' },
    ...staff.map((person) => ({ value: String(person.id), label: person.id === me.id ? `${person.name} (me)` : person.name })),
    ...(current !== null && !known ? [{ value: String(current), label: ticket.assignedAgent?.name ?? '' }] : []),
  ];
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label="Assignment">
      <Stack gap="sm">
        <Text fw={700}>Assignment</Text>
        {conflict && assign.variables && (
          <ConflictReview
            message={assign.error?.message ?? ''}
            base={base}
            current={conflict}
            mine={{ assignedAgent: assign.variables.agentId }}
            busy={assign.isPending}
            onReapply={() => {
              setBase(conflict);
              assign.mutate({ agentId: assign.variables.agentId, on: conflict });
            }}
            onDiscard={() => {
              void ticketSaved(client, conflict);
              assign.reset();
            }}
          />
        )}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Assignee"
            data={options}
            value={current === null ? UNASSIGNED : String(current)}
            onChange={(value) => {
              const agentId = !value || value === UNASSIGNED ? null : Number(value);
              if (agentId !== current) choose(agentId);
            }}
            allowDeselect={false}
            searchable
            disabled={assign.isPending}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            variant="light"
            leftSection={<IconUserCheck size={16} />}
            disabled={current === me.id}
            loading={assign.isPending}
            onClick={() => choose(me.id)}
          >
            Assign to me
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
