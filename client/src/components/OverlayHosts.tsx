import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { usePageShown } from '../state/pageShown';
import { userAtom } from '../state/session';

/**
 * Toasts and confirmation dialogs render from here. Both are driven by Mantine's global stores and
 * events (`notifications.show`, `modals.openConfirmModal`), so their hosts need not wrap the app and
 * can load after the first paint: together with the dialog's scroll and popover code they are ~30 kB
 * of gzip the first visit to /login does not need.
 */
const NotificationsHost = lazy(() => import('./NotificationsHost'));
// Only signed-in pages ask to confirm a delete; the host is mounted long before anyone can click one.
const ModalsHost = lazy(() => import('./ModalsHost'));

export function OverlayHosts({ modals = false }: { modals?: boolean }) {
  const user = useAtomValue(userAtom);
  // A toast asked for earlier waits in Mantine's store; a dialog is an event the host must be
  // listening for, so its host does not wait for the page.
  const pageShown = usePageShown();
  return (
    <>
      <Suspense fallback={null}>{pageShown && <NotificationsHost />}</Suspense>
      <Suspense fallback={null}>{(modals || user) && <ModalsHost />}</Suspense>
    </>
  );
}
