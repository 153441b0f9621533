import { Text } from '@mantine/core';
import { useOtherViewers } from './usePresence';

export const typingText = (names: string[]): string =>
  names.length === 1 ? `${names[0]} is typing…` : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`;

/** "Name is typing…" under the reply box while someone else writes on this ticket. */
export function TypingIndicator({ ticketId }: { ticketId: number }) {
  const typists = useOtherViewers(ticketId)
    .filter((v) => v.typing)
    .map((v) => v.name);
  return (
    <Text size="sm" c="gray.7" fs="italic" aria-live="polite" mih={20}>
      {typists.length > 0 ? typingText(typists) : ''}
    </Text>
  );
}
