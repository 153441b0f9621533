import { describe, expect, it } from 'vitest';
import { EVERY_TABLE, tableDependencies, type Catalog } from './tableDependencies.js';

/** pg_trigger.tgtype of an AFTER … FOR EACH ROW trigger on these events (INSERT 4, DELETE 8, UPDATE 16). */
const row = (events: number) => 1 | events;

const catalog: Catalog = {
  relations: [
    { name: 'owners', body: null },
    { name: 'items', body: null },
    { name: 'item_counts', body: null },
    { name: 'item_notes', body: null },
    { name: 'audit', body: null },
    { name: 'labels', body: null },
    { name: 'open_items', body: 'SELECT items.id FROM items WHERE open' },
  ],
  functions: [
    { name: 'count_items', body: 'BEGIN PERFORM bump_count(NEW.owner_id); RETURN NULL; END' },
    { name: 'bump_count', body: 'INSERT INTO item_counts VALUES ($1, 1)' },
    { name: 'log_change', body: 'INSERT INTO audit VALUES (1)' },
  ],
  triggers: [
    { table: 'items', fn: 'count_items', type: row(4 | 8) },
    // FOR EACH STATEMENT: fires even when no row changed.
    { table: 'owners', fn: 'log_change', type: 16 },
  ],
  cascades: [
    { parent: 'items', child: 'item_notes', onDelete: true, onUpdate: true },
    { parent: 'owners', child: 'items', onDelete: true, onUpdate: true },
    // ON DELETE SET NULL alone: an UPDATE of items never changes labels.
    { parent: 'labels', child: 'items', onDelete: true, onUpdate: false },
  ],
};

const sorted = (tables: Iterable<string>) => [...tables].sort();

describe('table dependencies from the catalog', () => {
  const deps = tableDependencies(catalog);

  it('reads the tables a statement names, through the views it names', () => {
    expect(sorted(deps.read('select * from "owners" join "open_items" on true'))).toEqual(['items', 'owners']);
    expect(sorted(deps.read('select 1'))).toEqual([]);
    // A longer identifier containing a table's name is not that table.
    expect(sorted(deps.read('select items_total from owners'))).toEqual(['owners']);
  });

  it('adds what triggers write, through the functions they call, for the events they fire on', () => {
    expect(sorted(deps.written('insert into "items" ("owner_id") values ($1)'))).toEqual(['item_counts', 'items']);
    // An UPDATE fires no INSERT/DELETE trigger, but the foreign key's ON UPDATE action may change notes.
    expect(sorted(deps.written('update "items" set "title" = $1 where "id" = $2'))).toEqual(['item_notes', 'items']);
  });

  it('follows cascades only for changes that fire them, and transitively past them', () => {
    expect(sorted(deps.written('insert into owners (name) values ($1)'))).toEqual(['owners']);
    // Deleting an owner cascades into items, whose own triggers and cascades then apply.
    expect(sorted(deps.written('delete from owners where id = $1'))).toEqual(['item_counts', 'item_notes', 'items', 'owners']);
    expect(sorted(deps.written('update owners set name = $1'))).toEqual(['audit', 'item_counts', 'item_notes', 'items', 'owners']);
    // A key that acts on delete only: an update of the parent reaches no child.
    expect(sorted(deps.written('update labels set name = $1'))).toEqual(['labels']);
    expect(sorted(deps.written('delete from labels where id = $1'))).toEqual(['item_counts', 'item_notes', 'items', 'labels']);
  });

  it('changes what a write targets, not what it only reads', () => {
    // A RETURNING's lookups, an INSERT … SELECT's source and a row lock's table are read, not changed.
    expect(sorted(deps.written('update "labels" set "name" = $1 returning (select o.name from "owners" o where o.id = $2)'))).toEqual([
      'labels',
    ]);
    expect(sorted(deps.written('insert into audit select id from owners where id = $1'))).toEqual(['audit']);
    expect(
      sorted(
        deps.written('with due as (select id from labels where id = $1 for update of labels skip locked) update owners set name = $2'),
      ),
    ).toEqual(['audit', 'item_counts', 'item_notes', 'items', 'owners']);
    expect(sorted(deps.written('insert into "public"."labels" (id) values ($1) on conflict (id) do update set name = $2'))).toEqual([
      'labels',
    ]);
    // Every data-modifying WITH is a target too.
    expect(
      sorted(deps.written('with gone as (delete from labels where id = $1 returning id) insert into audit select id from gone')),
    ).toEqual(['audit', 'item_counts', 'item_notes', 'items', 'labels']);
  });

  it('changes every table a write names where its targets cannot be told', () => {
    // Through a view: its body's tables. Through a function named in the text: what its body names.
    expect(sorted(deps.written('update open_items set title = $1'))).toEqual(['item_notes', 'items']);
    expect(sorted(deps.written('insert into labels (id) values (bump_count($1))'))).toEqual(['item_counts', 'labels']);
    // Several statements, a TRUNCATE, or no target it knows: everything named.
    expect(sorted(deps.written('insert into audit values (1); update labels set name = $1'))).toEqual(['audit', 'labels']);
    expect(sorted(deps.written('truncate labels, audit'))).toEqual(['audit', 'item_counts', 'item_notes', 'items', 'labels']);
    expect(sorted(deps.written('update unknown_table set x = 1 from labels'))).toEqual(['labels']);
  });

  it('changes every table when the statement names none it knows', () => {
    expect(sorted(deps.written('call do_something()'))).toEqual([EVERY_TABLE]);
  });

  it('knows which tables may change without a changed row (statement triggers)', () => {
    expect(deps.changesWithoutRows(new Set(['owners']))).toBe(true);
    expect(deps.changesWithoutRows(new Set(['items']))).toBe(false);
    expect(deps.changesWithoutRows(new Set([EVERY_TABLE]))).toBe(true);
  });
});
