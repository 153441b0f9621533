import { createApiTokenBody, LIMITS, MESSAGES, TOKEN_SCOPES, type ApiToken, type TokenScope } from '@helpdesk/protocol';
import { Badge, Button, Checkbox, Group, NumberInput, Skeleton, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiTokensApi } from '../../api/apiTokens';
import { isApiError } from '../../api/ApiError';
import { queryKeys } from '../../api/queryKeys';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SecretOnce } from '../../components/SecretOnce';
import { confirmDelete } from '../../lib/confirmDelete';
import { formatDate, formatDateTime, fromNow } from '../../lib/dates';
import { notifySuccess } from '../../lib/notify';
import { schemaResolver } from '../../lib/schemaResolver';

export const API_TOKENS_TEXT = {
  intro: 'Tokens let scripts and other systems call the API as you, within the scopes you give them.',
  loadFailed: 'Failed to load API tokens',
  createFailed: 'Failed to create the token',
  revokeFailed: 'Failed to revoke the token',
  create: 'Create token',
  newToken: 'New token',
  empty: 'No API tokens yet.',
  secretTitle: 'Copy your new token now',
  secretHint: 'It is shown only this once. Send it as "Authorization: Bearer <token>".',
  neverUsed: 'Never',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this token?',
  revokeQuestion: (name: string) => `"${name}" stops working at once, for every script that uses it.`,
} as const;

/** What each scope opens, for the checkboxes. */
const SCOPE_HINTS: Record<TokenScope, string> = {
  'tickets:read': 'Read tickets, their threads, views and files',
  'tickets:write': 'Create and change tickets, comment, upload files',
  'knowledge:write': 'Write knowledge base articles',
  'reports:read': 'Read reports',
  'users:read': 'Read the staff directory and requesters',
  admin: 'Administrator calls (only for an administrator’s token)',
};

const lastUse = (token: ApiToken) => (token.lastUsedAt ? fromNow(token.lastUsedAt) : API_TOKENS_TEXT.neverUsed);

type Values = { name: string; scopes: string[]; expiresInDays: number | string };

/** Settings → Tokens (docs/api.md#api-tokens): staff make, see and revoke their tokens; admins see everyone's. */
export function ApiTokens({ myId }: { myId: number }) {
  const client = useQueryClient();
  const tokens = useQuery({ queryKey: queryKeys.apiTokens, queryFn: ({ signal }) => apiTokensApi.list(signal) });
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { name: '', scopes: ['tickets:read'], expiresInDays: LIMITS.apiTokens.expiresInDays.default },
    validate: schemaResolver(createApiTokenBody),
  });
  const create = useMutation({
    mutationFn: (values: Values) => apiTokensApi.create(createApiTokenBody.parse(values)),
    onMutate: () => setSecret(null),
    onSuccess: (answer) => {
      setSecret(answer.secret);
      form.reset();
      void client.invalidateQueries({ queryKey: queryKeys.apiTokens });
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => apiTokensApi.revoke(id),
    onSuccess: () => {
      notifySuccess(MESSAGES.apiTokens.revoked);
      void client.invalidateQueries({ queryKey: queryKeys.apiTokens });
    },
  });
  const askRevoke = (token: ApiToken) =>
    confirmDelete({
      title: API_TOKENS_TEXT.revokeTitle,
      question: API_TOKENS_TEXT.revokeQuestion(token.name),
      confirm: API_TOKENS_TEXT.revoke,
      onConfirm: () => revoke.mutate(token.id),
    });
  const fieldErrors = isApiError(create.error) && Object.keys(create.error.fieldErrors).length > 0;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {API_TOKENS_TEXT.intro}
      </Text>
      {secret && (
        <SecretOnce title={API_TOKENS_TEXT.secretTitle} hint={API_TOKENS_TEXT.secretHint} secret={secret} testId="new-token-secret" />
      )}

      {tokens.isPending && <Skeleton height={80} radius="md" />}
      {tokens.isError && <ErrorAlert message={API_TOKENS_TEXT.loadFailed} error={tokens.error} />}
      {revoke.isError && <ErrorAlert message={API_TOKENS_TEXT.revokeFailed} error={revoke.error} />}
      {tokens.isSuccess && tokens.data.tokens.length === 0 && (
        <Text size="sm" c="dimmed">
          {API_TOKENS_TEXT.empty}
        </Text>
      )}
      {tokens.isSuccess && tokens.data.tokens.length > 0 && (
        <Table.ScrollContainer minWidth={0}>
          <Table verticalSpacing="xs" aria-label="API tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th visibleFrom="sm">Scopes</Table.Th>
                <Table.Th visibleFrom="sm">Expires</Table.Th>
                <Table.Th visibleFrom="sm">Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.tokens.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {token.name}
                    </Text>
                    {token.owner.id !== myId && (
                      <Text size="xs" c="dimmed">
                        {token.owner.name}
                      </Text>
                    )}
                    {/* A phone has no room for the other columns: they go under the name. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {token.scopes.join(', ')}
                      <br />
                      Expires {formatDate(token.expiresAt)} · Last used {lastUse(token).toLowerCase()}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Group gap={4}>
                      {token.scopes.map((scope) => (
                        <Badge key={scope} size="sm" variant="light" tt="none">
                          {scope}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" title={formatDateTime(token.expiresAt)}>
                      {formatDate(token.expiresAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" title={token.lastUsedAt ? formatDateTime(token.lastUsedAt) : undefined}>
                      {lastUse(token)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      onClick={() => askRevoke(token)}
                      aria-label={`${API_TOKENS_TEXT.revoke} ${token.name}`}
                    >
                      {API_TOKENS_TEXT.revoke}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
        <Stack gap="sm">
          {create.isError && !fieldErrors && <ErrorAlert message={API_TOKENS_TEXT.createFailed} error={create.error} />}
          <Title order={3} size="h5">
            {API_TOKENS_TEXT.newToken}
          </Title>
          <TextInput
            label="Token name"
            placeholder="Nightly export"
            maxLength={LIMITS.apiTokens.name.max}
            maw={420}
            {...form.getInputProps('name')}
          />
          <Checkbox.Group label="Scopes" {...form.getInputProps('scopes')}>
            <Stack gap={6} mt={6}>
              {TOKEN_SCOPES.map((scope) => (
                <Checkbox key={scope} value={scope} label={scope} description={SCOPE_HINTS[scope]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <NumberInput
            label="Expires in (days)"
            min={LIMITS.apiTokens.expiresInDays.min}
            max={LIMITS.apiTokens.expiresInDays.max}
            allowDecimal={false}
            w={180}
            {...form.getInputProps('expiresInDays')}
          />
          <Button type="submit" loading={create.isPending} style={{ alignSelf: 'flex-start' }}>
            {API_TOKENS_TEXT.create}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
