import type { SlaPolicy } from '@helpdesk/protocol';

/**
 * The policy a ticket falls under: the first active one by position whose domains hold the owner's
 * email domain, else the first active one without domains, else none.
 */
export function choosePolicy<P extends Pick<SlaPolicy, 'position' | 'requesterDomains' | 'active'>>(
  policies: readonly P[],
  ownerEmail: string,
): P | undefined {
  const domain = ownerEmail.slice(ownerEmail.lastIndexOf('@') + 1).toLowerCase();
  const active = policies.filter((policy) => policy.active).sort((a, b) => a.position - b.position);
  return active.find((policy) => policy.requesterDomains.includes(domain)) ?? active.find((policy) => policy.requesterDomains.length === 0);
}
