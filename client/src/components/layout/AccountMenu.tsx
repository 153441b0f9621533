import { canManageUsers, type User } from '@helpdesk/protocol';
import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconClockCheck, IconLogout, IconSettings } from '@tabler/icons-react';
import { labelOf } from '../../lib/text';
import { Link } from 'wouter';
import { useLogout } from '../../state/useLogout';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

/**
 * The account menu shows name and role, then Settings, the admin tools for admins, and Logout
 * (docs/product.md#navigation). Admin tools live here rather than in the top bar, which keeps the
 * links every role shares.
 */
export default function AccountMenu({ user }: { user: User }) {
  const logout = useLogout();
  return (
    // Without the initial-focus placeholder: that focusable div is a child a menu may not hold (axe
    // aria-required-children). Focus goes to Settings instead (data-autofocus): left to itself the
    // focus trap picks the disabled name item, which cannot take focus, so focus stayed on the button
    // and the menu's arrow keys and Escape, which work only inside it, never ran.
    <Menu position="bottom-end" width={220} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton data-testid="account-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar color="blue" radius="xl" size={32} aria-hidden>
              {initials(user.name)}
            </Avatar>
            <IconChevronDown size={14} aria-hidden />
            {/* The name in text rather than aria-label, which would not contain the visible initials. */}
            <VisuallyHidden>Account menu</VisuallyHidden>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {/* An item, since a menu may hold only items, groups of items and separators (axe aria-required-children);
            disabled, because it only says who is signed in. */}
        <Menu.Item disabled style={{ cursor: 'default', opacity: 1 }}>
          <Text size="sm" fw={600} c="bright" truncate>
            {user.name}
          </Text>
          <Text size="xs" c="dimmed">
            {labelOf(user.role)}
          </Text>
        </Menu.Item>
        <Menu.Divider role="none" />
        <Menu.Item component={Link} href="/settings" leftSection={<IconSettings size={16} />} data-autofocus>
          Settings
        </Menu.Item>
        {canManageUsers(user) && (
          <>
            <Menu.Divider role="none" />
            <Menu.Label role="none">Administration</Menu.Label>
            <Menu.Item component={Link} href="/service-levels" leftSection={<IconClockCheck size={16} />}>
              Service Levels
            </Menu.Item>
          </>
        )}
        <Menu.Item leftSection={<IconLogout size={16} color="var(--mantine-color-red-9)" aria-hidden />} onClick={logout}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
