import { Avatar } from '@mantine/core';
import { useOtherViewers } from './usePresence';
import { initialsOf } from './initials';

/** Most avatars shown before "+n". */
const SHOWN = 3;

/**
 * The other staff on a ticket right now, as small avatars (a queue row, the ticket header). Pencil-free
 * on purpose: typing is shown where the reply is written. Renders nothing when nobody else is there.
 */
export function TicketViewers({ ticketId, size = 'sm' }: { ticketId: number; size?: 'xs' | 'sm' | 'md' }) {
  const viewers = useOtherViewers(ticketId);
  if (viewers.length === 0) return null;
  const names = viewers.map((v) => v.name).join(', ');
  return (
    // A native title, not a Tooltip: this sits in every queue row, which should stay light to render.
    <Avatar.Group
      spacing="xs"
      role="img"
      aria-label={`Also viewing: ${names}`}
      title={`Viewing now: ${names}`}
      data-testid={`viewers-${ticketId}`}
    >
      {viewers.slice(0, SHOWN).map((v) => (
        <Avatar key={v.id} size={size} radius="xl" color="teal.9" variant="filled" aria-hidden>
          {initialsOf(v.name)}
        </Avatar>
      ))}
      {viewers.length > SHOWN && (
        <Avatar size={size} radius="xl" aria-hidden>
          +{viewers.length - SHOWN}
        </Avatar>
      )}
    </Avatar.Group>
  );
}
