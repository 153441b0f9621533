import { changePasswordForm, MESSAGES } from '@helpdesk/protocol';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { isApiError } from '../../api/ApiError';
import { usersApi } from '../../api/users';
import { ErrorAlert } from '../../components/ErrorAlert';
import { schemaResolver } from '../../lib/schemaResolver';
import { PASSWORD_HINT } from '../../lib/passwordHint';
import { rotateSession, setSession } from '../../state/session';
import { PasswordField } from '../../components/PasswordField';

export const CHANGE_PASSWORD_TEXT = {
  submit: 'Change Password',
  failed: 'Failed to change password',
  intro: 'Changing your password signs you out everywhere else; this window stays signed in.',
} as const;

// A type, not an interface: the schema resolver takes a plain record of the form's values.
type Values = { currentPassword: string; newPassword: string; confirmPassword: string };

/** Settings → Password: the current password, then a new one under the sign-up rules. */
export function ChangePasswordForm() {
  const form = useForm<Values>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: schemaResolver(changePasswordForm),
  });
  const change = useMutation({
    mutationFn: ({ currentPassword, newPassword }: Values) =>
      rotateSession(() => usersApi.changePassword({ currentPassword, newPassword })),
    onSuccess: ({ token, user }) => {
      setSession({ token, user });
      form.reset();
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });
  // A wrong current password is shown on its field; other failures (rate limit, network) above the form.
  const fieldError = isApiError(change.error) && Object.keys(change.error.fieldErrors).length > 0;

  return (
    <form onSubmit={form.onSubmit((values) => change.mutate(values))} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {CHANGE_PASSWORD_TEXT.intro}
        </Text>
        {change.isSuccess && (
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} aria-hidden />} role="status">
            {MESSAGES.users.passwordChanged}
          </Alert>
        )}
        {change.isError && !fieldError && <ErrorAlert message={CHANGE_PASSWORD_TEXT.failed} error={change.error} />}
        <PasswordField label="Current password" autoComplete="current-password" {...form.getInputProps('currentPassword')} />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          description={PASSWORD_HINT}
          {...form.getInputProps('newPassword')}
        />
        <PasswordField label="Confirm new password" autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
        <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
          {CHANGE_PASSWORD_TEXT.submit}
        </Button>
      </Stack>
    </form>
  );
}
