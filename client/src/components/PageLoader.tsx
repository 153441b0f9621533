import { Center, Loader, Stack, Text } from '@mantine/core';

export function PageLoader({ label }: { label?: string }) {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm">
        <Loader />
        {label && <Text c="dimmed">{label}</Text>}
      </Stack>
    </Center>
  );
}
