import { requestPasswordResetBody, type RequestPasswordResetBody } from '@helpdesk/protocol';
import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { screenMessage } from '../../api/ApiError';
import { authApi } from '../../api/auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthCard } from '../../components/AuthCard';
import { BackToLoginLink } from './BackToLoginLink';
import { schemaResolver } from '../../lib/schemaResolver';
import { EmailInput } from './EmailInput';

export const RESET_REQUEST_TEXT = {
  sent: 'If an account with that email exists, a password reset link has been sent.',
  failed: 'Error requesting password reset',
} as const;

/** /reset-password without a token (docs/product.md#password-reset): ask for a reset link by email. */
export function RequestResetForm() {
  const form = useForm<RequestPasswordResetBody>({
    initialValues: { email: '' },
    validate: schemaResolver(requestPasswordResetBody),
  });
  const request = useMutation({ mutationFn: ({ email }: RequestPasswordResetBody) => authApi.requestPasswordReset(email) });

  return (
    <AuthCard
      title="Reset Password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      icon={<IconMailForward size={28} />}
      footer={<BackToLoginLink />}
    >
      {request.isSuccess ? (
        // The same words whether or not the address is known, so the page reveals no accounts.
        <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status">
          {RESET_REQUEST_TEXT.sent}
        </Alert>
      ) : (
        <>
          {request.isError && <ErrorAlert message={screenMessage(request.error, RESET_REQUEST_TEXT.failed)} />}
          <form onSubmit={form.onSubmit((values) => request.mutate(values))} noValidate>
            <Stack gap="md">
              <EmailInput {...form.getInputProps('email')} />
              <Button type="submit" fullWidth size="md" loading={request.isPending} leftSection={<IconMailForward size={18} />}>
                Send Reset Link
              </Button>
            </Stack>
          </form>
        </>
      )}
    </AuthCard>
  );
}
