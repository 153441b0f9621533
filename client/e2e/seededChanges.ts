import type { ApiClient } from '../../server/test/http';

/** A small, fast PRNG (mulberry32): the same seed gives the same run. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
    /** One key of `weights`, each as likely as its weight. */
    weighted: <K extends string>(weights: Record<K, number>): K => {
      const entries = Object.entries(weights) as [K, number][];
      let roll = next() * entries.reduce((sum, [, w]) => sum + w, 0);
      for (const [key, weight] of entries) if ((roll -= weight) < 0) return key;
      return entries[entries.length - 1]![0];
    },
  };
}
export type Random = ReturnType<typeof seeded>;

export interface Person {
  name: string;
  token: string;
  id: number;
}

export interface Cast {
  admin: Person;
  agents: Person[];
  owners: Person[];
}

const STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
const WORDS = ['printer', 'laptop', 'mailbox', 'invoice', 'VPN', 'monitor', 'badge', 'Wi-Fi'];

export const CHANGES = {
  create: 10,
  status: 14,
  priority: 10,
  assign: 10,
  reply: 12,
  note: 10,
  bulk: 4,
  remove: 4,
  retitle: 4,
} as const;
export type ChangeKind = keyof typeof CHANGES;

/** The tickets a run knows of: which exist, whose they are, which the open pages show, which notified someone. */
export interface Tickets {
  all: number[];
  owners: Map<number, Person>;
  favoured: number[];
  notified: Set<number>;
}

/**
 * One REST change of the given kind, made by someone allowed to (or, now and then, by someone who
 * is not: a refusal changes nothing, which the pages must show too). Answers a line for the log.
 */
export async function makeChange(
  kind: ChangeKind,
  api: ApiClient,
  cast: Cast,
  tickets: Tickets,
  random: Random,
  mention?: Person,
): Promise<string> {
  const staff = [cast.admin, ...cast.agents];
  const target = random.chance(0.5) && tickets.favoured.length > 0 ? random.pick(tickets.favoured) : random.pick(tickets.all);
  const owner = tickets.owners.get(target) ?? random.pick(cast.owners);
  const word = random.pick(WORDS);
  const done = (who: Person, what: string, status: number) => `${who.name} ${what} → ${status}`;
  switch (kind) {
    case 'create': {
      const by = random.pick(cast.owners);
      const res = await api.post(
        '/tickets',
        {
          title: `${word} trouble ${random.int(1000)}`,
          description: `The ${word} stopped working this morning.`,
          priority: random.pick(PRIORITIES),
        },
        { token: by.token },
      );
      if (res.status === 201) {
        tickets.all.push(res.body.ticket.id);
        tickets.owners.set(res.body.ticket.id, by);
      }
      return done(by, `creates #${res.body.ticket?.id ?? '?'}`, res.status);
    }
    case 'status': {
      const by = random.pick(staff);
      const status = random.pick(STATUSES);
      return done(by, `sets #${target} ${status}`, (await api.put(`/tickets/${target}`, { status }, { token: by.token })).status);
    }
    case 'priority': {
      const by = random.chance(0.3) ? owner : random.pick(staff);
      const priority = random.pick(PRIORITIES);
      return done(by, `sets #${target} ${priority}`, (await api.put(`/tickets/${target}`, { priority }, { token: by.token })).status);
    }
    case 'assign': {
      const by = random.pick(staff);
      const to = random.chance(0.2) ? null : random.pick(cast.agents);
      const res = await api.put(`/tickets/${target}`, { assignedAgentId: to?.id ?? null }, { token: by.token });
      if (to) tickets.notified.add(target);
      return done(by, `assigns #${target} to ${to?.name ?? 'nobody'}`, res.status);
    }
    case 'reply': {
      const by = random.chance(0.4) ? owner : random.pick(staff);
      const body = {
        content: `About the ${word}: ${random.int(10_000)}`,
        ...(random.chance(0.15) && by !== owner && { status: 'resolved' }),
      };
      return done(by, `replies on #${target}`, (await api.post(`/tickets/${target}/comments`, body, { token: by.token })).status);
    }
    case 'note': {
      const by = random.pick(staff);
      const mentioned = mention ? [mention] : random.chance(0.6) ? [random.pick(cast.agents)] : [];
      if (mentioned.length > 0) tickets.notified.add(target);
      const body = { content: `Note on the ${word} ${random.int(10_000)}`, internal: true, mentions: mentioned.map((m) => m.id) };
      const res = await api.post(`/tickets/${target}/comments`, body, { token: by.token });
      return done(by, `notes on #${target}${mentioned.length ? ` mentioning ${mentioned[0]!.name}` : ''}`, res.status);
    }
    case 'bulk': {
      const ids = [...new Set(Array.from({ length: 2 + random.int(3) }, () => random.pick(tickets.all)))];
      const changes = random.pick([
        { status: random.pick(STATUSES) },
        { priority: random.pick(PRIORITIES) },
        { assignedAgentId: random.pick(cast.agents).id },
      ]);
      const res = await api.post('/tickets/bulk', { ids, changes }, { token: cast.admin.token });
      return done(cast.admin, `bulk ${JSON.stringify(changes)} on ${ids.join(',')}`, res.status);
    }
    case 'remove': {
      // Mostly a ticket that notified someone, so a bell has something to lose; rarely one a page shows.
      const notified = [...tickets.notified].filter((id) => tickets.all.includes(id) && !tickets.favoured.includes(id));
      const doomed = notified.length > 0 && random.chance(0.8) ? random.pick(notified) : target;
      const res = await api.delete(`/tickets/${doomed}`, { token: cast.admin.token });
      if (res.status === 200) tickets.all = tickets.all.filter((id) => id !== doomed);
      return done(cast.admin, `deletes #${doomed}`, res.status);
    }
    case 'retitle': {
      const title = `${word} ${random.pick(['again', 'still', 'urgent', 'please'])} ${random.int(1000)}`;
      return done(owner, `retitles #${target}`, (await api.put(`/tickets/${target}`, { title }, { token: owner.token })).status);
    }
  }
}
