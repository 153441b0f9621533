import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

/** A link back to where the screen came from (docs/product.md#screens names each screen's back target). */
export function BackLink({ href, label = 'Back' }: { href: string; label?: string }) {
  return (
    <Button component={Link} href={href} variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={16} />} px={4}>
      {label}
    </Button>
  );
}

/** Title row of a ticket screen: optional back link above, subtitle below, actions at the right. */
export function PageHeader({
  title,
  subtitle,
  back,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  back?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Stack gap={6}>
      {back && <div>{back}</div>}
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && <Text c="dimmed">{subtitle}</Text>}
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}
