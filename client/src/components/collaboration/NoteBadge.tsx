import { Badge } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

/** The mark of staff-only text: dark on yellow, readable (≥ 4.5:1) at badge size. */
export function NoteBadge({ label = 'Internal note' }: { label?: string }) {
  return (
    <Badge size="xs" variant="filled" color="yellow.5" c="dark.9" leftSection={<IconLock size={10} aria-hidden />}>
      {label}
    </Badge>
  );
}
