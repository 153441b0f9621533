import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

export const NO_PERMISSION_TEXT =
  "You don't have permission to access this page. Please contact an administrator if you believe this is an error.";

/** What a signed-in visitor sees on a staff or admin screen their role does not open (docs/product.md#routes). */
export function NoPermission() {
  return (
    <Card withBorder radius="lg" padding="xl" maw={560} mx="auto" mt="xl" data-testid="no-permission">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconLock size={30} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Access Denied
        </Title>
        <Text c="dimmed">{NO_PERMISSION_TEXT}</Text>
      </Stack>
    </Card>
  );
}
