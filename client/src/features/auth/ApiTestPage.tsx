import { apiTestForm, type LoginBody } from '@helpdesk/protocol';
import { Alert, Badge, Button, Code, Group, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconApi, IconCircleCheck, IconLock, IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { isApiError } from '../../api/ApiError';
import { authApi } from '../../api/auth';
import { API_BASE } from '../../api/http';
import { AuthCard } from '../../components/AuthCard';
import { schemaResolver } from '../../lib/schemaResolver';
import { EmailInput } from './EmailInput';
import { PasswordField } from '../../components/PasswordField';

/** What a failed test call tells the person checking the connection. */
function FailureDetails({ error }: { error: unknown }) {
  const status = isApiError(error) && error.status !== undefined ? String(error.status) : 'no response';
  const url = isApiError(error) ? error.url : '/auth/login';
  const message = (isApiError(error) && error.serverMessage) || (error instanceof Error ? error.message : String(error));
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle />} title="Test login failed" role="alert">
      <Stack gap={2}>
        <Text size="sm" ff="monospace">{`Status: ${status}`}</Text>
        <Text size="sm" ff="monospace">{`URL: ${url}`}</Text>
        <Text size="sm">{message}</Text>
      </Stack>
    </Alert>
  );
}

/**
 * /api-test (docs/product.md#api-test-page): checks the backend with the real login call and shows what came back. It
 * only reports: it signs nobody in (the route sends a signed-in visitor home).
 */
export default function ApiTestPage() {
  const form = useForm<LoginBody>({
    initialValues: { email: '', password: '' },
    validate: schemaResolver(apiTestForm),
  });
  const test = useMutation({ mutationFn: (values: LoginBody) => authApi.login(values) });

  return (
    <AuthCard
      title="API Connection Test"
      subtitle={
        <>
          Sends the credentials to <Code>POST {API_BASE}/auth/login</Code> and shows the answer. Your own session is not changed.
        </>
      }
      icon={<IconApi size={28} />}
      width={640}
    >
      <form onSubmit={form.onSubmit((values) => test.mutate(values))} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <EmailInput autoComplete="off" {...form.getInputProps('email')} />
            <PasswordField label="Password" autoComplete="off" leftSection={<IconLock size={16} />} {...form.getInputProps('password')} />
          </SimpleGrid>
          <Button type="submit" loading={test.isPending} leftSection={<IconPlugConnected size={18} />}>
            Test Login
          </Button>
        </Stack>
      </form>

      {test.isError && <FailureDetails error={test.error} />}
      {test.isSuccess && (
        <Stack gap="xs" data-testid="api-test-response">
          <Group gap="xs">
            <IconCircleCheck size={18} color="var(--mantine-color-green-6)" />
            <Text fw={600}>Response</Text>
            <Badge color="green" variant="light">
              Success
            </Badge>
          </Group>
          <ScrollArea.Autosize mah={360} type="auto">
            {/* Long values (the token) wrap instead of scrolling sideways. */}
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {JSON.stringify(test.data, null, 2)}
            </Code>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </AuthCard>
  );
}
