import { canShareItems, LIMITS, type View, type User } from '@helpdesk/protocol';
import { ActionIcon, Badge, Group, Menu, NavLink, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconDots, IconEye, IconPencil, IconShare, IconTrash, IconUsers } from '@tabler/icons-react';
import { formatTotal } from '../../lib/text';

interface ViewListProps {
  views: View[] | undefined;
  counts: Record<string, number> | undefined;
  /** The view whose filters and sort the table shows now, if any. */
  activeId: number | null;
  user: Pick<User, 'id' | 'role'>;
  onOpen: (view: View) => void;
  onRename: (view: View) => void;
  onToggleShare: (view: View) => void;
  onDelete: (view: View) => void;
  /** Beside the heading: Save current view. */
  action?: ReactNode;
}

const canEdit = (view: View, user: Pick<User, 'id' | 'role'>) =>
  !view.builtIn && (view.shared ? canShareItems(user) : view.owner?.id === user.id);

/**
 * The server counts a view with a search or a tag up to the list's cap, with no flag
 * (docs/api.md#running-the-queue), so such a count at the cap reads "10,000+". Others are exact.
 */
const countText = (view: View, count: number | undefined) =>
  count === undefined ? '…' : formatTotal(count, Boolean(view.filters.search || view.filters.tag) && count === LIMITS.ticketList.countCap);

/** The dashboard's saved views with their live counts (docs/product.md#running-the-queue-agent-dashboard-additions). */
export function ViewList({ views, counts, activeId, user, onOpen, onRename, onToggleShare, onDelete, action }: ViewListProps) {
  return (
    <Paper withBorder radius="md" p="xs" component="nav" aria-label="Saved views">
      <Group justify="space-between" px="xs" py={4}>
        <Text fw={700} size="sm">
          Views
        </Text>
        {action}
      </Group>
      {views === undefined ? (
        <Stack gap={6} p="xs">
          <Skeleton h={24} />
          <Skeleton h={24} />
          <Skeleton h={24} />
        </Stack>
      ) : (
        // A grid above the table, which keeps the page's whole width (docs/decisions.md#queue-layout).
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing={4} verticalSpacing={2}>
          {views.map((view) => (
            <Group key={view.id} gap={0} wrap="nowrap">
              <NavLink
                component="button"
                style={{ flex: 1, minWidth: 0 }}
                active={activeId === view.id}
                label={view.name}
                leftSection={view.shared && !view.builtIn ? <IconUsers size={14} aria-label="Shared" /> : <IconEye size={14} aria-hidden />}
                rightSection={
                  <Badge variant="light" color="gray.8" size="sm" data-testid={`view-count-${view.id}`}>
                    {countText(view, counts?.[view.id])}
                  </Badge>
                }
                onClick={() => onOpen(view)}
                aria-current={activeId === view.id ? 'true' : undefined}
              />
              {canEdit(view, user) && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Actions for view ${view.name}`}>
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => onRename(view)}>
                      Rename
                    </Menu.Item>
                    {canShareItems(user) && (
                      <Menu.Item leftSection={<IconShare size={14} />} onClick={() => onToggleShare(view)}>
                        {view.shared ? 'Stop sharing' : 'Share with the team'}
                      </Menu.Item>
                    )}
                    <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onDelete(view)}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
