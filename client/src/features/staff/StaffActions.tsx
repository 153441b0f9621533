import { MESSAGES, canDeleteAccount, type User } from '@helpdesk/protocol';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

export interface StaffActionHandlers {
  viewer: User | null;
  onEdit: (agent: User) => void;
  onDelete: (agent: User) => void;
}

/** Edit and Delete for one account; Delete is disabled where the server would refuse it (your own). */
export function StaffActions({ agent, viewer, onEdit, onDelete }: StaffActionHandlers & { agent: User }) {
  const deletable = viewer !== null && canDeleteAccount(viewer, agent);
  return (
    <Group gap={6} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="light" size="lg" aria-label={`Edit ${agent.name}`} onClick={() => onEdit(agent)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={deletable ? 'Delete' : MESSAGES.users.cannotDeleteSelf}>
        <ActionIcon
          variant="light"
          size="lg"
          color="red"
          aria-label={`Delete ${agent.name}`}
          disabled={!deletable}
          onClick={() => onDelete(agent)}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
