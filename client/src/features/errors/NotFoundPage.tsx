import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBook, IconHome } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { homePath } from '../../state/home';
import { userAtom } from '../../state/session';

/** 'Page Not Found', back to the dashboard (or login) and on to the knowledge base (docs/product.md#not-found-page). */
export default function NotFoundPage() {
  const user = useAtomValue(userAtom);
  return (
    <Card withBorder radius="lg" padding="xl" maw={560} mx="auto" mt="xl">
      <Stack align="center" gap="md" ta="center">
        <Text fz={72} fw={800} c="blue" lh={1}>
          404
        </Text>
        <Title order={1}>Page Not Found</Title>
        <Text c="dimmed">The page you are looking for does not exist or has been moved.</Text>
        <Group justify="center" mt="sm">
          <Button component={Link} href={user ? homePath(user.role) : '/login'} leftSection={<IconHome size={18} />}>
            {user ? 'Go to Dashboard' : 'Go to Login'}
          </Button>
          <Button component={Link} href="/knowledge" variant="light" leftSection={<IconBook size={18} />}>
            Browse Help Articles
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
