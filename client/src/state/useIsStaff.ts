import { isStaffRole } from '@helpdesk/protocol';
import { useAtomValue } from 'jotai';
import { userAtom } from './session';

/** Whether the signed-in account is support staff (agent or admin); false when signed out. */
export function useIsStaff(): boolean {
  const user = useAtomValue(userAtom);
  return user !== null && isStaffRole(user.role);
}
