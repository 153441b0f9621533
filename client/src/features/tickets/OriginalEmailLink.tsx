import { Anchor, Group } from '@mantine/core';
import { IconMailDown } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { emailApi } from '../../api/email';
import { notifyError } from '../../lib/notify';
import { TICKET_TEXT } from './texts';

/**
 * Staff only (the server sends `inboundMessageId` to staff alone): the mail a comment or ticket was
 * filed from, as received, quotes and all. A link to the raw message, saved with the session's token
 * as the Email page's Download does: followed as a plain link it would carry none.
 */
export function OriginalEmailLink({ id }: { id: number }) {
  const download = useMutation({
    mutationFn: () => emailApi.downloadRaw(id),
    onError: () => notifyError(TICKET_TEXT.originalEmailFailed),
  });
  return (
    <Anchor
      href={emailApi.rawHref(id)}
      download={`message-${id}.eml`}
      size="xs"
      w="fit-content"
      data-testid="original-email"
      aria-busy={download.isPending || undefined}
      onClick={(event) => {
        event.preventDefault();
        if (!download.isPending) download.mutate();
      }}
    >
      <Group component="span" gap={4} wrap="nowrap">
        <IconMailDown size={14} aria-hidden />
        {TICKET_TEXT.originalEmail}
      </Group>
    </Anchor>
  );
}
