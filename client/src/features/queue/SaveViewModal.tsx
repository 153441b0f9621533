import { LIMITS, MESSAGES } from '@helpdesk/protocol';
import { Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type SubmitEvent } from 'react';

interface SaveViewModalProps {
  opened: boolean;
  title: string;
  initialName?: string;
  /** Admins may share the view with every staff member. */
  canShare: boolean;
  saving: boolean;
  onSave: (name: string, shared: boolean) => void;
  onClose: () => void;
}

/**
 * Names a view (1–80 characters, the server's rule and texts). The form mounts afresh at each opening;
 * the modal stays mounted, so on closing Mantine returns the focus to what opened it.
 */
export function SaveViewModal({ opened, title, onClose, ...form }: SaveViewModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {opened && <SaveViewForm onClose={onClose} {...form} />}
    </Modal>
  );
}

function SaveViewForm({ initialName = '', canShare, saving, onSave, onClose }: Omit<SaveViewModalProps, 'opened' | 'title'>) {
  const [name, setName] = useState(initialName);
  const [shared, setShared] = useState(false);
  const [touched, setTouched] = useState(false);
  const trimmed = name.trim();
  const error =
    trimmed.length === 0
      ? MESSAGES.validation.viewNameRequired
      : trimmed.length > LIMITS.viewName.max
        ? MESSAGES.validation.viewNameTooLong
        : null;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (error || saving) return;
    onSave(trimmed, shared);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="View name"
          withAsterisk
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={touched ? error : null}
          data-autofocus
        />
        {canShare && <Checkbox label="Share with the team" checked={shared} onChange={(event) => setShared(event.currentTarget.checked)} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save view
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
