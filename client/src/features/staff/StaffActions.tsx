import type { User } from '@helpdesk/protocol';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

export interface StaffActionHandlers {
  currentUserId: number | undefined;
  onEdit: (agent: User) => void;
  onDelete: (agent: User) => void;
}

/** Edit and Delete for one account; nobody may delete their own account from here (SPEC §6). */
export function StaffActions({ agent, currentUserId, onEdit, onDelete }: StaffActionHandlers & { agent: User }) {
  const self = agent.id === currentUserId;
  return (
    <Group gap={6} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="light" size="lg" aria-label={`Edit ${agent.name}`} onClick={() => onEdit(agent)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={self ? 'You cannot delete your own account' : 'Delete'}>
        <ActionIcon variant="light" size="lg" color="red" aria-label={`Delete ${agent.name}`} disabled={self} onClick={() => onDelete(agent)}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
