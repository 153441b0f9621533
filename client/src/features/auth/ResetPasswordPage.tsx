import { useSearch } from 'wouter';
import { RequestResetForm } from './RequestResetForm';
import { SetNewPasswordForm } from './SetNewPasswordForm';

/** The link in the reset email carries a token; without one the page asks for an email (docs/product.md#password-reset). */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token')?.trim();
  return token ? <SetNewPasswordForm token={token} /> : <RequestResetForm />;
}
