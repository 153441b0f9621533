import { createWebhookBody, LIMITS, WEBHOOK_EVENTS, type CreateWebhookBody, type Webhook } from '@helpdesk/protocol';
import { Button, Checkbox, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { isApiError, screenMessage } from '../../api/ApiError';
import { webhooksApi } from '../../api/webhooks';
import { ErrorAlert } from '../../components/ErrorAlert';
import { schemaResolver } from '../../lib/schemaResolver';
import { EVENT_HINTS, WEBHOOKS_TEXT } from './texts';

type Values = { url: string; description: string; events: string[]; includeInternal: boolean; active: boolean };

/** What a save answers: the webhook, and its secret when it was just made. */
export interface Saved {
  webhook: Webhook;
  secret?: string;
}

function WebhookForm({ webhook, onSaved, onClose }: { webhook: Webhook | null; onSaved: (saved: Saved) => void; onClose: () => void }) {
  const form = useForm<Values>({
    initialValues: webhook
      ? {
          url: webhook.url,
          description: webhook.description,
          events: webhook.events,
          includeInternal: webhook.includeInternal,
          active: webhook.active,
        }
      : { url: 'https://', description: '', events: ['ticket.created'], includeInternal: false, active: true },
    validate: schemaResolver(createWebhookBody),
  });
  const save = useMutation({
    mutationFn: (body: CreateWebhookBody): Promise<Saved> => (webhook ? webhooksApi.update(webhook.id, body) : webhooksApi.create(body)),
    onSuccess: onSaved,
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });
  const fieldErrors = isApiError(save.error) && Object.keys(save.error.fieldErrors).length > 0;

  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(createWebhookBody.parse(values)))}>
      <Stack gap="md">
        {save.isError && !fieldErrors && <ErrorAlert message={screenMessage(save.error, WEBHOOKS_TEXT.saveFailed)} />}
        <TextInput
          label={WEBHOOKS_TEXT.fieldUrl}
          placeholder="https://example.com/helpdesk-events"
          maxLength={LIMITS.webhooks.url.max}
          data-autofocus
          {...form.getInputProps('url')}
        />
        <TextInput
          label={WEBHOOKS_TEXT.fieldDescription}
          placeholder="CRM sync"
          maxLength={LIMITS.webhooks.description.max}
          {...form.getInputProps('description')}
        />
        <Checkbox.Group label={WEBHOOKS_TEXT.fieldEvents} {...form.getInputProps('events')}>
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={event} description={EVENT_HINTS[event]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label={WEBHOOKS_TEXT.fieldIncludeInternal}
          description={WEBHOOKS_TEXT.fieldIncludeInternalHint}
          {...form.getInputProps('includeInternal', { type: 'checkbox' })}
        />
        <Switch label={WEBHOOKS_TEXT.fieldActive} {...form.getInputProps('active', { type: 'checkbox' })} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {webhook ? WEBHOOKS_TEXT.save : WEBHOOKS_TEXT.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface WebhookDialogState {
  opened: boolean;
  webhook: Webhook | null;
  /** Bumped at each opening, so the form starts afresh. */
  opening: number;
}

export function WebhookDialog({
  state,
  onSaved,
  onClose,
}: {
  state: WebhookDialogState;
  onSaved: (saved: Saved) => void;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={state.opened}
      onClose={onClose}
      title={state.webhook ? WEBHOOKS_TEXT.editTitle : WEBHOOKS_TEXT.addTitle}
      centered
      radius="lg"
      size="lg"
    >
      <WebhookForm key={state.opening} webhook={state.webhook} onSaved={onSaved} onClose={onClose} />
    </Modal>
  );
}
