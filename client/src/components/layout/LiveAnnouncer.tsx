import { VisuallyHidden } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { announcementAtom } from '../../state/attention';

/** A polite live region: screen readers read each live change once, without moving focus. */
export function LiveAnnouncer() {
  const announcement = useAtomValue(announcementAtom);
  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="live-announcer">
      {announcement?.text ?? ''}
    </VisuallyHidden>
  );
}
