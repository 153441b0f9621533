import { canManageUsers, type User } from '@helpdesk/protocol';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { confirmDelete } from '../../lib/confirmDelete';
import { IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { usersApi } from '../../api/users';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { userAtom } from '../../state/session';
import { StaffDialog, type StaffDialogState } from './StaffDialog';
import { StaffCards, StaffTable } from './StaffTable';
import { STAFF_TEXT } from './texts';
import { useDeleteStaff } from './useStaffMutations';
import { useScreenUnder } from '../../lib/useScreenUnder';

function AgentList({ onEdit }: { onEdit: (agent: User) => void }) {
  const me = useAtomValue(userAtom);
  const agents = useQuery({ queryKey: queryKeys.users.staff, queryFn: ({ signal }) => usersApi.list('agent', signal) });
  const remove = useDeleteStaff();
  // Read at once rather than after mounting, so a phone never flashes the wide table first.
  const phone = useScreenUnder(36);

  const askToDelete = (agent: User) =>
    confirmDelete({ title: `Delete ${agent.name}?`, question: STAFF_TEXT.confirmDelete, onConfirm: () => remove.mutate(agent) });

  if (agents.isPending) {
    return (
      <Stack gap="sm" data-testid="agents-loading">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={40} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (agents.isError) return <ErrorAlert message={STAFF_TEXT.loadFailed} error={agents.error} />;
  if (agents.data.users.length === 0) {
    return (
      <EmptyState
        title={STAFF_TEXT.empty}
        description="Add a support agent to start resolving tickets together."
        icon={<IconUsers size={30} />}
      />
    );
  }
  const List = phone ? StaffCards : StaffTable;
  return <List agents={agents.data.users} viewer={me} onEdit={onEdit} onDelete={askToDelete} />;
}

/** Support agents management, for admins (docs/product.md#support-management). */
export default function SupportManagementPage() {
  const me = useAtomValue(userAtom);
  const [dialog, setDialog] = useState<StaffDialogState>({ opened: false, agent: null, opening: 0 });
  const openDialog = (agent: User | null) => setDialog((last) => ({ opened: true, agent, opening: last.opening + 1 }));
  if (!me || !canManageUsers(me)) return <NoPermission />;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <div>
          <Title order={1} size="h2">
            Support Management
          </Title>
          <Text c="dimmed" size="sm">
            Add, edit and remove the support agents who resolve tickets.
          </Text>
        </div>
        <Button leftSection={<IconUserPlus size={18} />} onClick={() => openDialog(null)}>
          Add Support Agent
        </Button>
      </Group>

      <Card withBorder radius="lg" padding="lg">
        <AgentList onEdit={openDialog} />
      </Card>

      <StaffDialog state={dialog} onClose={() => setDialog((last) => ({ ...last, opened: false }))} />
    </Stack>
  );
}
