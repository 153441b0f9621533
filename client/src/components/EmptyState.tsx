import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function EmptyState({
  title,
  description,
  icon,
  action,
  heading,
}: {
  title: string;
  /** Makes the title the screen's heading, for a screen that has no other (one `<h1>` per screen). */
  heading?: 'h1';
  description?: string;
  icon?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        {icon ?? <IconInbox size={30} />}
      </ThemeIcon>
      <Text component={heading ?? 'p'} fw={600} size="lg" m={0}>
        {title}
      </Text>
      {description && (
        <Text c="dimmed" ta="center">
          {description}
        </Text>
      )}
      {action}
    </Stack>
  );
}
