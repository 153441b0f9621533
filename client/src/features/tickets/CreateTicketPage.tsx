import { createTicketBody, DEFAULT_CATEGORY, LIMITS, type Category, type Priority } from '@helpdesk/protocol';
import { Button, Grid, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBulb, IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { isApiError } from '../../api/ApiError';
import { ticketCreated } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { homePath } from '../../state/home';
import { userAtom } from '../../state/session';
import { CategorySelect, CountedTextarea, PrioritySelect, SaveFeedback, TicketTitleInput } from './fields';
import { BackLink, PageHeader } from './PageHeader';
import { TICKET_TEXT } from './texts';
import { useDelayedNavigate } from '../../lib/useDelayedNavigate';
import { schemaResolver } from '../../lib/schemaResolver';
import { AttachButton, DraftFiles, DropHint, useFileDrop } from '../../components/attachments/AttachmentPicker';
import { ATTACHMENT_TEXT } from '../../components/attachments/texts';
import { useAttachmentDraft } from '../../components/attachments/useAttachmentDraft';

const DESCRIPTION = LIMITS.ticketDescription;

const TIPS = [
  'Use a short, specific title, e.g. "Cannot print from the 3rd floor printer".',
  'Describe what you expected and what happened instead.',
  'List the steps that lead to the problem and any error message you saw.',
  'Pick the priority that matches the impact: urgent only when work is blocked.',
];

function TipsBox() {
  return (
    <Paper withBorder radius="md" p="lg" bg="var(--mantine-color-blue-light)">
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon variant="light" radius="xl" size="lg">
          <IconBulb size={20} />
        </ThemeIcon>
        <Title order={2} size="h4">
          Tips for a faster resolution
        </Title>
      </Group>
      <List spacing="xs" size="sm" icon={<IconCircleCheck size={16} color="var(--mantine-color-blue-6)" />}>
        {TIPS.map((tip) => (
          <List.Item key={tip}>{tip}</List.Item>
        ))}
      </List>
    </Paper>
  );
}

/** /create-ticket (docs/product.md#create-ticket), with the rules of docs/product.md#validation. */
export default function CreateTicketPage() {
  const user = useAtomValue(userAtom);
  const home = user ? homePath(user.role) : '/dashboard';
  const client = useQueryClient();
  const redirect = useDelayedNavigate();
  const form = useForm<{ title: string; description: string; priority: Priority; category: Category }>({
    initialValues: { title: '', description: '', priority: LIMITS.defaultPriority, category: DEFAULT_CATEGORY },
    validate: schemaResolver(createTicketBody),
  });

  const draft = useAttachmentDraft();
  const { dropProps, dragging } = useFileDrop(draft);
  const create = useMutation({
    mutationFn: ticketsApi.create,
    onSuccess: () => {
      void ticketCreated(client);
      redirect(home, LIMITS.redirectAfterTicketSaveMs);
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });

  const done = create.isSuccess;
  const submit = form.onSubmit((values) => {
    // The files still going up are waited for, not left behind (the button says so meanwhile).
    if (draft.uploading) return;
    const { title, description, priority, category } = createTicketBody.parse(values);
    create.mutate({ title, description, priority, category, ...(draft.ids.length > 0 && { attachmentIds: draft.ids }) });
  });

  return (
    <Stack gap="lg">
      <PageHeader
        back={<BackLink href={home} label="Back to Dashboard" />}
        title="Create New Ticket"
        subtitle="Tell us what is wrong and our support team will get back to you."
      />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" p="lg" shadow="xs">
            <form onSubmit={submit} noValidate {...dropProps}>
              <Stack gap="md">
                <SaveFeedback done={done} successText={TICKET_TEXT.created} error={create.error} failureText={TICKET_TEXT.createFailed} />
                <TicketTitleInput
                  limits={LIMITS.ticketTitle.create}
                  placeholder="e.g. Cannot log in to the billing portal"
                  disabled={done}
                  {...form.getInputProps('title')}
                />
                <CountedTextarea
                  label="Description"
                  description={`What happened, what you expected, and the steps to reproduce it (at least ${DESCRIPTION.min} characters)`}
                  placeholder="Describe the problem in detail..."
                  withAsterisk
                  max={DESCRIPTION.max}
                  disabled={done}
                  {...form.getInputProps('description')}
                />
                <Group grow align="flex-start" gap="md">
                  <PrioritySelect description="How much does this block your work?" disabled={done} {...form.getInputProps('priority')} />
                  <CategorySelect description="What is it about?" disabled={done} {...form.getInputProps('category')} />
                </Group>
                <Stack gap={6}>
                  <Text size="sm" fw={500}>
                    Attachments
                  </Text>
                  <Text size="xs" c="dimmed">
                    {ATTACHMENT_TEXT.hint}
                  </Text>
                  <DropHint visible={dragging} />
                  <DraftFiles draft={draft} />
                  <div>
                    <AttachButton draft={draft} disabled={done} />
                  </div>
                </Stack>
                <Group justify="flex-end" gap="sm">
                  <Button component={Link} href={home} variant="default">
                    Cancel
                  </Button>
                  <Button
                    type="submit"
                    leftSection={<IconSend size={16} />}
                    loading={create.isPending}
                    disabled={done || draft.uploading}
                    title={draft.uploading ? ATTACHMENT_TEXT.waitForUploads : undefined}
                  >
                    Create Ticket
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <TipsBox />
          <Text size="xs" c="dimmed" mt="sm">
            You will get updates on this ticket by email, according to your notification settings.
          </Text>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
