import { staffForm, type User } from '@helpdesk/protocol';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAt, IconLock, IconUser } from '@tabler/icons-react';
import { isApiError, screenMessage } from '../../api/ApiError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PASSWORD_HINT } from '../../lib/passwordHint';
import { STAFF_TEXT } from './texts';
import { useSaveStaff, type StaffValues } from './useStaffMutations';
import { schemaResolver } from '../../lib/schemaResolver';
import { PasswordField } from '../../components/PasswordField';

/**
 * What the dialog is for: a new agent (`agent` null) or the one being edited. It stays set while
 * the dialog closes, so the form does not vanish mid-animation; `opening` gives each opening a
 * fresh form.
 */
export interface StaffDialogState {
  opened: boolean;
  agent: User | null;
  opening: number;
}

function StaffForm({ agent, onClose }: { agent: User | null; onClose: () => void }) {
  const form = useForm<StaffValues>({
    initialValues: { name: agent?.name ?? '', email: agent?.email ?? '', password: '' },
    validate: schemaResolver(staffForm(agent ? 'edit' : 'create')),
  });
  const save = useSaveStaff(agent, onClose);

  return (
    <form
      onSubmit={form.onSubmit((values) =>
        save.mutate(values, { onError: (error) => isApiError(error) && form.setErrors(error.fieldErrors) }),
      )}
      noValidate
    >
      <Stack gap="md">
        {save.isError && <ErrorAlert message={screenMessage(save.error, STAFF_TEXT.saveFailed)} />}
        <TextInput
          label="Full Name"
          placeholder="Jane Doe"
          leftSection={<IconUser size={16} />}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Email"
          type="email"
          placeholder="agent@example.com"
          leftSection={<IconAt size={16} />}
          disabled={agent !== null}
          description={agent ? 'The email address of an account cannot be changed.' : undefined}
          {...form.getInputProps('email')}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          leftSection={<IconLock size={16} />}
          description={agent ? STAFF_TEXT.keepPassword : PASSWORD_HINT}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {agent ? 'Save Changes' : 'Add Agent'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One dialog to add a support agent (role forced to agent) or edit one (docs/product.md#support-management). */
export function StaffDialog({ state, onClose }: { state: StaffDialogState; onClose: () => void }) {
  const { agent } = state;
  return (
    <Modal
      opened={state.opened}
      onClose={onClose}
      title={agent ? 'Edit Support Agent' : 'Add Support Agent'}
      centered
      radius="lg"
      size="md"
    >
      <StaffForm key={state.opening} agent={agent} onClose={onClose} />
    </Modal>
  );
}
