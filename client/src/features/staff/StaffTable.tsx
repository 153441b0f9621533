import type { User } from '@helpdesk/protocol';
import { Avatar, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { labelOf } from '../../lib/text';
import { StaffActions, type StaffActionHandlers } from './StaffActions';

type StaffListProps = StaffActionHandlers & { agents: User[] };

function RoleBadge({ role }: { role: User['role'] }) {
  return (
    <Badge variant="light" color={role === 'admin' ? 'grape' : 'blue'}>
      {labelOf(role)}
    </Badge>
  );
}

// Initials only decorate the name beside them, so they stay out of the accessible name.
const Initials = ({ name }: { name: string }) => <Avatar size={36} radius="xl" name={name} color="initials" aria-hidden />;

/** The Name, Email, Role, Actions table (docs/product.md#support-management). */
export function StaffTable({ agents, ...actions }: StaffListProps) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th w={110} ta="right">
              Actions
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {agents.map((agent) => (
            <Table.Tr key={agent.id} data-testid={`agent-row-${agent.id}`}>
              <Table.Td>
                <Group gap="sm" wrap="nowrap">
                  <Initials name={agent.name} />
                  <Text fw={500}>{agent.name}</Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {agent.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <RoleBadge role={agent.role} />
              </Table.Td>
              <Table.Td>
                <StaffActions agent={agent} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The same accounts as cards, for phones, where four columns do not fit. */
export function StaffCards({ agents, ...actions }: StaffListProps) {
  return (
    <Stack gap="sm">
      {agents.map((agent) => (
        <Paper key={agent.id} withBorder radius="md" p="sm" shadow="none" data-testid={`agent-row-${agent.id}`}>
          <Group justify="space-between" wrap="nowrap" align="center">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Initials name={agent.name} />
              <Stack gap={2} miw={0}>
                <Text fw={500} truncate>
                  {agent.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {agent.email}
                </Text>
                <div>
                  <RoleBadge role={agent.role} />
                </div>
              </Stack>
            </Group>
            <StaffActions agent={agent} {...actions} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
