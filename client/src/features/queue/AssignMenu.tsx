import type { Ticket, UserRef } from '@helpdesk/protocol';
import { Menu } from '@mantine/core';
import { RowAction } from './RowAction';
import { IconUserCheck, IconUserMinus, IconUserPlus, IconUsers } from '@tabler/icons-react';

export interface AssignHandlers {
  /** Who may be assigned (agents and admins). */
  staff: UserRef[];
  me: UserRef;
  onAssign: (ticket: Ticket, agentId: number | null) => void;
}

/** Assign to me, to a staff member, or unassign: the row's assignment menu. */
export function AssignMenu({ ticket, staff, me, onAssign, withText = false }: { ticket: Ticket; withText?: boolean } & AssignHandlers) {
  const current = ticket.assignedAgent?.id ?? null;
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <RowAction
          label="Assign"
          ariaLabel={`Assign ticket #${ticket.id}`}
          icon={<IconUserPlus size={18} />}
          color="teal"
          variant="subtle"
          withText={withText}
        />
      </Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        <Menu.Item leftSection={<IconUserCheck size={16} />} disabled={current === me.id} onClick={() => onAssign(ticket, me.id)}>
          Assign to me
        </Menu.Item>
        <Menu.Item leftSection={<IconUserMinus size={16} />} disabled={current === null} onClick={() => onAssign(ticket, null)}>
          Unassign
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>Assign to</Menu.Label>
        {staff
          .filter((person) => person.id !== me.id)
          .map((person) => (
            <Menu.Item
              key={person.id}
              leftSection={<IconUsers size={16} />}
              disabled={current === person.id}
              onClick={() => onAssign(ticket, person.id)}
            >
              {person.name}
            </Menu.Item>
          ))}
      </Menu.Dropdown>
    </Menu>
  );
}
