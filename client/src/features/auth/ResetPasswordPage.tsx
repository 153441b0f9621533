import { useSearch } from 'wouter';
import { RequestResetForm } from './RequestResetForm';
import { SetNewPasswordForm } from './SetNewPasswordForm';

/** SPEC §2: the link in the reset email carries a token; without one the page asks for an email. */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token')?.trim();
  return token ? <SetNewPasswordForm token={token} /> : <RequestResetForm />;
}
