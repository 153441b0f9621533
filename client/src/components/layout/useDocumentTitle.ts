import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { pageTitle } from '../../routing/pageTitle';
import { clearUnseenChanges, unseenChangesAtom } from '../../state/attention';

/** Keeps the tab title on the current page, with the count of live changes made while it was hidden. */
export function useDocumentTitle(location: string): void {
  const unseen = useAtomValue(unseenChangesAtom);
  useEffect(() => {
    document.title = pageTitle(location, unseen);
  }, [location, unseen]);
  useEffect(() => {
    const seen = () => {
      if (document.visibilityState === 'visible') clearUnseenChanges();
    };
    document.addEventListener('visibilitychange', seen);
    window.addEventListener('focus', seen);
    return () => {
      document.removeEventListener('visibilitychange', seen);
      window.removeEventListener('focus', seen);
    };
  }, []);
}
