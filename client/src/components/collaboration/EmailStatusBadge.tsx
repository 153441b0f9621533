import { Badge, Tooltip } from '@mantine/core';
import { IconMail, IconMailCheck, IconMailExclamation, IconMailX } from '@tabler/icons-react';
import type { EmailStatus } from '@helpdesk/protocol';

const SHOWN: Record<EmailStatus, { label: string; hint: string; color: string; Icon: typeof IconMail }> = {
  queued: { label: 'Email queued', hint: 'The reply is waiting to be emailed to the customer.', color: 'gray', Icon: IconMail },
  sent: { label: 'Emailed', hint: "The customer's mail server accepted the reply.", color: 'teal', Icon: IconMailCheck },
  bounced: { label: 'Email bounced', hint: 'The reply was returned as undeliverable.', color: 'red', Icon: IconMailX },
  failed: {
    label: 'Email failed',
    hint: 'The reply could not be emailed after several attempts.',
    color: 'red',
    Icon: IconMailExclamation,
  },
};

/** Staff only: how a reply's mail to the customer went (the server sends emailStatus to staff alone). */
export function EmailStatusBadge({ status }: { status: EmailStatus }) {
  const { label, hint, color, Icon } = SHOWN[status];
  return (
    <Tooltip label={hint} withArrow>
      <Badge size="xs" variant="light" color={color} leftSection={<Icon size={10} aria-hidden />} data-testid="email-status">
        {label}
      </Badge>
    </Tooltip>
  );
}
