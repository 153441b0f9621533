/**
 * Which tables a statement may read or change, from its text and the database's own catalog. Kept
 * answers (services/readMemo.ts) are dropped only when a table they read changes, so both sides
 * must over-approximate, never miss:
 * - a statement depends on every table its text names, and every table named in the body of a
 *   function or view it names (transitively);
 * - a write changes the tables it targets (after INSERT INTO, UPDATE, DELETE FROM, MERGE INTO, in any
 *   data-modifying WITH too), not those it only reads (a RETURNING's names, an INSERT … SELECT's
 *   source), plus every table named in the body of a function or view its text names; a write whose
 *   target cannot be told (TRUNCATE, COPY, CALL) may change every table it names;
 * - a write may also change every table that a trigger on a changed table writes to (the trigger
 *   function's body, transitively), and every table a foreign key cascades or nulls into, for the
 *   kinds of change its text names (INSERT fires no ON DELETE action); past a trigger, any kind.
 * Words are matched as identifiers, so a table named in a string or comment only costs a kept answer.
 */
export type Tables = ReadonlySet<string>;

/** A write whose tables cannot be told (no table named, or the catalog not read yet) changes them all. */
export const EVERY_TABLE = '*';

export interface Catalog {
  relations: Array<{ name: string; body: string | null }>;
  functions: Array<{ name: string; body: string | null }>;
  triggers: Array<{ table: string; fn: string; type: number }>;
  /**
   * Foreign keys whose ON DELETE or ON UPDATE changes the child row (cascade, set null, set default),
   * with which of the two does: an UPDATE of the parent fires only the ON UPDATE action.
   */
  cascades: Array<{ parent: string; child: string; onDelete: boolean; onUpdate: boolean }>;
}

/** The catalog of the current schema, read the same way on PostgreSQL and PGlite. */
export const CATALOG_QUERIES = {
  relations: `select c.relname as name, case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end as body
    from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p', 'v', 'm')`,
  functions: `select p.proname as name, p.prosrc as body from pg_proc p where p.pronamespace = current_schema()::regnamespace`,
  triggers: `select c.relname as "table", p.proname as fn, t.tgtype::int as type
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`,
  cascades: `select parent.relname as parent, child.relname as child,
      k.confdeltype in ('c', 'n', 'd') as "onDelete", k.confupdtype in ('c', 'n', 'd') as "onUpdate"
    from pg_constraint k join pg_class parent on parent.oid = k.confrelid join pg_class child on child.oid = k.conrelid
    where k.contype = 'f' and (k.confdeltype in ('c', 'n', 'd') or k.confupdtype in ('c', 'n', 'd'))`,
} as const;

const IDENTIFIER = /"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)/g;
const identifier = (quoted: string | undefined, bare: string | undefined) =>
  quoted !== undefined ? quoted.replaceAll('""', '"') : (bare ?? '').toLowerCase();

function identifiers(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) words.add(identifier(match[1], match[2]));
  return words;
}

/**
 * The relation a write verb changes, schema-qualified or not. `for update of …`, `do update set …`
 * and the like capture a word that names no table, and are passed over.
 */
const WRITE_TARGET =
  /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?(?:(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)\s*\.\s*)?(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*))/gi;

/** One INSERT, UPDATE, DELETE or MERGE, maybe under WITH: its targets are all it changes itself. */
const ONE_DATA_CHANGE = /^\s*(?:insert|update|delete|merge|with)\b/i;
const SEVERAL = /;\s*\S/;

function writeTargets(text: string): Set<string> {
  const targets = new Set<string>();
  for (const match of text.matchAll(WRITE_TARGET)) targets.add(identifier(match[1], match[2]));
  return targets;
}

/** pg_trigger.tgtype: bit 0 set = FOR EACH ROW; bits 2–5 = INSERT, DELETE, UPDATE, TRUNCATE. */
const EVENTS = { insert: 4, delete: 8, update: 16, truncate: 32, any: 4 | 8 | 16 | 32 } as const;
/** The words by which a statement may change rows, and the trigger events each fires. MERGE may do all three. */
const VERBS: Array<[string, number]> = [
  ['insert', EVENTS.insert],
  ['update', EVENTS.update],
  ['delete', EVENTS.delete],
  ['truncate', EVENTS.truncate],
  ['merge', EVENTS.insert | EVENTS.update | EVENTS.delete],
];
const firesPerStatementOnChange = (type: number) => (type & 1) === 0 && (type & (EVENTS.insert | EVENTS.delete | EVENTS.update)) !== 0;

export interface TableDependencies {
  /** The tables a statement may read. */
  read(text: string): Tables;
  /** The tables a write may change; EVERY_TABLE alone when it names none this catalog knows. */
  written(text: string): Tables;
  /**
   * Whether a write that reports zero changed rows may still have changed something: a trigger
   * FOR EACH STATEMENT fires even then.
   */
  changesWithoutRows(tables: Tables): boolean;
}

/** Before the catalog is read (while migrating), every write may change anything. */
export const unknownDependencies: TableDependencies = {
  read: () => new Set(),
  written: () => new Set([EVERY_TABLE]),
  changesWithoutRows: () => true,
};

/** Statement texts repeat (drizzle's are parameterised), so their answers are kept; this many texts. */
const TEXTS_KEPT = 2_000;

export function tableDependencies(catalog: Catalog): TableDependencies {
  const tables = new Set(catalog.relations.filter((r) => r.body === null).map((r) => r.name));
  const bodies = new Map<string, string[]>();
  for (const { name, body } of [...catalog.relations, ...catalog.functions])
    if (body) bodies.set(name, [...(bodies.get(name) ?? []), body]);

  /** Tables named in a text, or in the bodies of the functions and views it names, transitively. */
  const named = (text: string): Set<string> => {
    const found = new Set<string>();
    const seen = new Set<string>();
    const visit = (words: Set<string>) => {
      for (const word of words) {
        if (tables.has(word)) found.add(word);
        if (seen.has(word)) continue;
        seen.add(word);
        for (const body of bodies.get(word) ?? []) visit(identifiers(body));
      }
    };
    visit(identifiers(text));
    return found;
  };

  /**
   * The tables a write's own text changes: its targets (a view's, through its body) and whatever the
   * functions and views it names name, transitively. A statement update … returning (select name
   * from users …) changes no user: counting every table it names dropped every kept session row on
   * each ticket change. Anything else (several statements, TRUNCATE, COPY, DDL) or no target told:
   * every table it names.
   */
  const targeted = (text: string): Set<string> => {
    if (!ONE_DATA_CHANGE.test(text) || SEVERAL.test(text)) return named(text);
    const targets = [...writeTargets(text)].filter((word) => tables.has(word) || bodies.has(word));
    if (targets.length === 0) return named(text);
    const found = new Set<string>();
    for (const word of targets) if (tables.has(word)) found.add(word);
    for (const word of [...identifiers(text)].filter((w) => bodies.has(w)))
      for (const body of bodies.get(word) ?? []) for (const table of named(body)) found.add(table);
    return found;
  };

  // What a change to each table may change besides it, by kind of change: its triggers' writes
  // (pg_trigger.tgtype bits 2-5: INSERT, DELETE, UPDATE, TRUNCATE) and its foreign keys' actions.
  const direct = new Map<string, Array<{ events: number; tables: Set<string> }>>();
  const add = (table: string, events: number, tables: Set<string>) => direct.set(table, [...(direct.get(table) ?? []), { events, tables }]);
  for (const { table, fn, type } of catalog.triggers) add(table, type & EVENTS.any, named(fn));
  // TRUNCATE … CASCADE empties the children whatever the action, so it goes with ON DELETE ones.
  for (const { parent, child, onDelete, onUpdate } of catalog.cascades)
    add(parent, (onDelete ? EVENTS.delete | EVENTS.truncate : 0) | (onUpdate ? EVENTS.update : 0), new Set([child]));
  const statementTriggered = new Set(catalog.triggers.filter((t) => firesPerStatementOnChange(t.type)).map((t) => t.table));

  /** The tables a statement of these kinds may change from `start`; what triggers do may be any kind. */
  const closure = (start: Set<string>, events: number): Set<string> => {
    const all = new Set(start);
    const queue = [...start].map((table) => ({ table, events }));
    for (let next = queue.pop(); next !== undefined; next = queue.pop())
      for (const effect of direct.get(next.table) ?? [])
        if (effect.events & next.events)
          for (const table of effect.tables)
            if (!all.has(table)) {
              all.add(table);
              queue.push({ table, events: EVENTS.any });
            }
    return all;
  };

  const keep = <T>(compute: (text: string) => T) => {
    const kept = new Map<string, T>();
    return (text: string): T => {
      let value = kept.get(text);
      if (value === undefined) {
        value = compute(text);
        if (kept.size >= TEXTS_KEPT) kept.clear();
        kept.set(text, value);
      }
      return value;
    };
  };

  return {
    read: keep(named),
    written: keep((text) => {
      const words = identifiers(text);
      const events = VERBS.reduce((sum, [verb, event]) => (words.has(verb) ? sum | event : sum), 0);
      // A statement naming no verb (CALL, DO, COPY…) may do anything.
      const changed = closure(events ? targeted(text) : named(text), events || EVENTS.any);
      return changed.size > 0 ? changed : new Set([EVERY_TABLE]);
    }),
    changesWithoutRows: (changed) => changed.has(EVERY_TABLE) || [...changed].some((t) => statementTriggered.has(t)),
  };
}
