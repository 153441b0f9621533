import { Button, Collapse, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';

export const QUEUE_CONTROLS = 'Counts, views and filters';

/**
 * What stands above the queue: the count cards, the views and the filters. On a phone they fold into
 * one control, so the first ticket shows on the first screen (docs/product.md#agent-dashboard).
 */
export function QueueControls({ phone, children }: { phone: boolean; children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure(false);
  const id = useId();
  if (!phone) return <Stack gap="md">{children}</Stack>;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        fullWidth
        justify="space-between"
        leftSection={<IconAdjustmentsHorizontal size={16} />}
        rightSection={opened ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        aria-expanded={opened}
        aria-controls={id}
        onClick={toggle}
      >
        {QUEUE_CONTROLS}
      </Button>
      <Collapse in={opened} id={id}>
        {/* Rendered only while open: folded controls must not sit in the Tab order. */}
        {opened && <Stack gap="md">{children}</Stack>}
      </Collapse>
    </Stack>
  );
}
