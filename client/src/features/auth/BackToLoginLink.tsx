import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'wouter';

/** The way back from both password-reset screens. */
export function BackToLoginLink() {
  return (
    <Anchor component={Link} href="/login" size="sm">
      <IconArrowLeft size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
      Back to Login
    </Anchor>
  );
}
