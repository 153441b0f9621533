import { LIMITS, resetPasswordForm } from '@helpdesk/protocol';
import { Alert, Button, Loader, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconKey, IconLock } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { screenMessage } from '../../api/ApiError';
import { authApi } from '../../api/auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthCard } from '../../components/AuthCard';
import { BackToLoginLink } from './BackToLoginLink';
import { PASSWORD_HINT } from '../../lib/passwordHint';
import { schemaResolver } from '../../lib/schemaResolver';
import { useDelayedNavigate } from '../../lib/useDelayedNavigate';
import { PasswordField } from '../../components/PasswordField';

export const RESET_TEXT = {
  done: 'Password has been reset successfully. Redirecting to login...',
  failed: 'Error resetting password',
} as const;

type NewPasswordValues = { newPassword: string; confirmPassword: string };

/** /reset-password?token=… (docs/product.md#password-reset): choose a new password, then back to login after 3 s. */
export function SetNewPasswordForm({ token }: { token: string }) {
  const form = useForm<NewPasswordValues>({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: schemaResolver(resetPasswordForm),
  });
  const redirect = useDelayedNavigate();
  const reset = useMutation({
    mutationFn: ({ newPassword }: NewPasswordValues) => authApi.resetPassword(token, newPassword),
    onSuccess: () => redirect('/login', LIMITS.redirectAfterPasswordResetMs, { replace: true }),
  });

  return (
    <AuthCard
      title="Set New Password"
      subtitle="Choose a new password for your account."
      icon={<IconKey size={28} />}
      footer={<BackToLoginLink />}
    >
      {reset.isSuccess ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status">
          <Group gap="sm" wrap="nowrap">
            <Text size="sm">{RESET_TEXT.done}</Text>
            <Loader size="xs" color="green" />
          </Group>
        </Alert>
      ) : (
        <>
          {reset.isError && <ErrorAlert message={screenMessage(reset.error, RESET_TEXT.failed)} />}
          <form onSubmit={form.onSubmit((values) => reset.mutate(values))} noValidate>
            <Stack gap="md">
              <PasswordField
                label="New Password"
                autoComplete="new-password"
                leftSection={<IconLock size={16} />}
                description={PASSWORD_HINT}
                {...form.getInputProps('newPassword')}
              />
              <PasswordField
                label="Confirm Password"
                autoComplete="new-password"
                leftSection={<IconLock size={16} />}
                {...form.getInputProps('confirmPassword')}
              />
              <Button type="submit" fullWidth size="md" loading={reset.isPending} leftSection={<IconKey size={18} />}>
                Reset Password
              </Button>
            </Stack>
          </form>
        </>
      )}
    </AuthCard>
  );
}
