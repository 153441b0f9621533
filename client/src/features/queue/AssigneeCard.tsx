import type { Ticket, UserRef } from '@helpdesk/protocol';
import { Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useAssign } from './actions';
import { useAssignableStaff } from './queueData';

const UNASSIGNED = 'none';

/** The update screen's assignment: to me, to any staff member, or nobody; saved at once, apart from the status form. */
export function AssigneeCard({ ticket, me }: { ticket: Ticket; me: UserRef }) {
  const staff = useAssignableStaff().data?.staff ?? [];
  const assign = useAssign();
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
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Assignee"
            data={options}
            value={current === null ? UNASSIGNED : String(current)}
            onChange={(value) => {
              const agentId = !value || value === UNASSIGNED ? null : Number(value);
              if (agentId !== current) assign.mutate({ id: ticket.id, agentId });
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
            onClick={() => assign.mutate({ id: ticket.id, agentId: me.id })}
          >
            Assign to me
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
