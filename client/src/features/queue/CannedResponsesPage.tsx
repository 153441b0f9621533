import {
  canShareItems,
  isStaff,
  LIMITS,
  MESSAGES,
  PLACEHOLDERS,
  type CannedResponse,
  type CreateCannedResponseBody,
  type User,
} from '@helpdesk/protocol';
import { ActionIcon, Badge, Button, Card, Checkbox, Code, Group, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'wouter';
import { queryKeys } from '../../api/queryKeys';
import { queueApi } from '../../api/queue';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { PageLoader } from '../../components/PageLoader';
import { confirmDelete } from '../../lib/confirmDelete';
import { notifyError, notifySuccess } from '../../lib/notify';
import { userAtom } from '../../state/session';
import { useCannedResponses } from '../../components/collaboration/useCannedResponses';

const V = MESSAGES.validation;
export const CANNED_LOAD_FAILED = 'Failed to load canned responses';

const canChange = (item: CannedResponse, user: Pick<User, 'id' | 'role'>) =>
  item.shared ? canShareItems(user) : item.owner.id === user.id;

/** /agent/canned-responses: staff keep their own replies; admins also the team's shared ones. */
export default function CannedResponsesPage() {
  const user = useAtomValue(userAtom);
  if (!user || !isStaff(user)) return <NoPermission />;
  return <CannedResponses user={user} />;
}

function CannedResponses({ user }: { user: User }) {
  const client = useQueryClient();
  const list = useCannedResponses();
  const [editing, setEditing] = useState<CannedResponse | 'new' | null>(null);
  const settled = () => client.invalidateQueries({ queryKey: queryKeys.queue.canned });
  const save = useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CreateCannedResponseBody }) =>
      id === undefined ? queueApi.createCanned(body) : queueApi.updateCanned(id, body),
    onSuccess: ({ cannedResponse }) => {
      notifySuccess(`Canned response "${cannedResponse.title}" saved`);
      setEditing(null);
    },
    onSettled: settled,
  });
  const remove = useMutation({
    mutationFn: (id: number) => queueApi.removeCanned(id),
    onSuccess: ({ message }) => notifySuccess(message),
    onError: () => notifyError('Failed to delete the canned response'),
    onSettled: settled,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Group gap="md">
          <Button component={Link} href="/agent-dashboard" variant="subtle" leftSection={<IconArrowLeft size={16} />}>
            Back
          </Button>
          <Title order={1} size="h2">
            Canned responses
          </Title>
        </Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          New canned response
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        Placeholders filled when a response is inserted:{' '}
        {PLACEHOLDERS.map((p) => (
          <Code key={p} mr={4}>
            {p}
          </Code>
        ))}
      </Text>
      {list.isPending && <PageLoader label="Loading canned responses..." />}
      {list.isError && <ErrorAlert message={CANNED_LOAD_FAILED} error={list.error} />}
      {list.data?.cannedResponses.length === 0 && (
        <EmptyState title="No canned responses yet" description="Save the answers you give most often and insert them in two keystrokes." />
      )}
      <Stack gap="sm">
        {list.data?.cannedResponses.map((item) => (
          <Card key={item.id} withBorder padding="md" component="article" aria-label={item.title}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Text fw={700}>{item.title}</Text>
                  {item.shared && (
                    <Badge variant="light" color="teal.9" size="sm">
                      Shared
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed">
                    by {item.owner.name}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {item.content}
                </Text>
              </Stack>
              {canChange(item, user) && (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" size="lg" aria-label={`Edit ${item.title}`} onClick={() => setEditing(item)}>
                    <IconPencil size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Delete ${item.title}`}
                    onClick={() =>
                      confirmDelete({
                        title: 'Delete canned response',
                        question: `Delete "${item.title}"?`,
                        onConfirm: () => remove.mutate(item.id),
                      })
                    }
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
              )}
            </Group>
          </Card>
        ))}
      </Stack>
      <CannedResponseEditor
        item={editing}
        canShare={canShareItems(user)}
        saving={save.isPending}
        error={save.error}
        onSave={(body) => save.mutate({ id: editing && editing !== 'new' ? editing.id : undefined, body })}
        onClose={() => setEditing(null)}
      />
    </Stack>
  );
}

interface EditorProps {
  item: CannedResponse | 'new' | null;
  canShare: boolean;
  saving: boolean;
  error: Error | null;
  onSave: (body: CreateCannedResponseBody) => void;
  onClose: () => void;
}

/**
 * The dialog stays mounted, so on closing Mantine returns the focus to the button that opened it;
 * its form is mounted per item, so each opening starts from the item (or empty).
 */
function CannedResponseEditor({ item, ...form }: EditorProps) {
  const existing = item && item !== 'new' ? item : null;
  return (
    <Modal
      opened={item !== null}
      onClose={form.onClose}
      title={existing ? 'Edit canned response' : 'New canned response'}
      centered
      size="lg"
    >
      {item !== null && <CannedResponseForm key={existing?.id ?? 'new'} existing={existing} {...form} />}
    </Modal>
  );
}

function CannedResponseForm({
  existing,
  canShare,
  saving,
  error,
  onSave,
  onClose,
}: Omit<EditorProps, 'item'> & { existing: CannedResponse | null }) {
  const [title, setTitle] = useState(existing?.title ?? '');
  const [content, setContent] = useState(existing?.content ?? '');
  const [shared, setShared] = useState(existing?.shared ?? false);
  const [touched, setTouched] = useState(false);
  const titleError = !title.trim() ? V.cannedTitleRequired : title.trim().length > LIMITS.cannedTitle.max ? V.cannedTitleTooLong : null;
  const contentError = !content.trim()
    ? V.cannedContentRequired
    : content.trim().length > LIMITS.cannedContent.max
      ? V.cannedContentTooLong
      : null;
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (titleError || contentError) return;
    onSave({ title: title.trim(), content: content.trim(), shared });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {error && <ErrorAlert message="Failed to save the canned response" error={error} />}
        <TextInput
          label="Title"
          withAsterisk
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={touched && titleError}
          data-autofocus
        />
        <Textarea
          label="Content"
          withAsterisk
          autosize
          minRows={4}
          maxRows={12}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
          error={touched && contentError}
        />
        {canShare && <Checkbox label="Share with the team" checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
