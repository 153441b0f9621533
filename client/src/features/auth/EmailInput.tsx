import { TextInput, type TextInputProps } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';

/** The email field of every sign-in, sign-up and reset form: one label, one autocomplete, one look. */
export function EmailInput(props: TextInputProps) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      leftSection={<IconAt size={16} />}
      {...props}
    />
  );
}
