import { Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLifebuoy, IconTicket } from '@tabler/icons-react';
import { Link } from 'wouter';
import { KNOWLEDGE_TEXT } from './texts';

/** When the articles do not answer it, the reader is pointed to a ticket (docs/product.md#knowledge-base). */
export function CreateTicketCallout({ title, description }: { title: string; description: string }) {
  return (
    <Paper withBorder radius="md" p="lg" bg="var(--mantine-color-blue-light)" component="aside" aria-label={title}>
      <Group justify="space-between" gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="xl" variant="white">
            <IconLifebuoy size={26} />
          </ThemeIcon>
          <Stack gap={2}>
            <Text fw={700} size="lg">
              {title}
            </Text>
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          </Stack>
        </Group>
        <Button component={Link} href="/create-ticket" leftSection={<IconTicket size={18} />}>
          {KNOWLEDGE_TEXT.createTicket}
        </Button>
      </Group>
    </Paper>
  );
}
