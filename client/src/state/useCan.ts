import type { Actor } from '@helpdesk/protocol';
import { useAtomValue } from 'jotai';
import { userAtom } from './session';

/**
 * Whether the signed-in account passes a protocol policy; false when signed out. Screens use it only
 * to hide what the server would refuse anyway.
 */
export function useCan(policy: (actor: Actor) => boolean): boolean {
  const user = useAtomValue(userAtom);
  return user !== null && policy(user);
}
