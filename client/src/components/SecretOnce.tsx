import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';

/** A secret the server answers once (an API token, a webhook's signing secret), with a copy button. */
export function SecretOnce({ title, hint, secret, testId }: { title: string; hint: string; secret: string; testId: string }) {
  return (
    <Alert color="green" variant="light" icon={<IconKey size={18} aria-hidden />} title={title} role="status">
      <Stack gap="xs">
        <Text size="sm">{hint}</Text>
        <Group gap="xs">
          <Code style={{ wordBreak: 'break-all' }} data-testid={testId}>
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
