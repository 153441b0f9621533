import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { forwardRef } from 'react';

/**
 * Mantine's PasswordInput shows an error but leaves its inner input without aria-invalid, so a screen
 * reader does not hear the field is wrong; every password field here is this one.
 */
export const PasswordField = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordField(props, ref) {
  return <PasswordInput ref={ref} aria-invalid={Boolean(props.error)} {...props} />;
});
