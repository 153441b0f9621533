import { Center, Loader, Stack, Text } from '@mantine/core';

export function PageLoader({ label }: { label?: string }) {
  return (
    // A status, so the wait is announced; data-page-loader lets the browser journeys wait it out.
    <Center py={80} role="status" aria-label={label ?? 'Loading'} data-page-loader>
      <Stack align="center" gap="sm">
        <Loader />
        {label && <Text c="dimmed">{label}</Text>}
      </Stack>
    </Center>
  );
}
