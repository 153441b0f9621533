import { Column, getTableName, is, Placeholder, sql, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A selection's fields: columns or SQL expressions, one level of nesting at most ({ ticket: columns, ...derived }). */
export type Fields = Record<string, Column | SQL | Record<string, Column | SQL>>;

/** The same selection as SQL text and a reader of its rows (docs/decisions.md#a-page-built-once). */
export interface RenderedSelection<T> {
  /** `expression as "alias", …`: constant, with no parameters, so it is spliced in as text. */
  text: string;
  /** One raw row of a statement that selected `text`, as the query builder would have returned it. */
  rowOf(raw: Record<string, unknown>): T;
}

const dialect = new PgDialect();
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
const IDENTITY: Decoder = { mapFromDriverValue: (value) => value };
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface Leaf {
  path: [string] | [string, string];
  alias: string;
  decoder: Decoder;
}

/**
 * Renders a selection to text once. Building a ticket page's statement through the query builder
 * took 160 µs, a tenth of the server's time on a list (each field and fragment is type-checked on
 * every call); with the constant part rendered here, only the filters are built per call. Values decode as
 * the builder decodes them: a column's own mapping (timestamps, bigints, arrays), an expression's
 * `mapWith`. The expressions' own parameters (constants of the code, such as role names) are written
 * in as literals, so the text can be spliced anywhere.
 */
export function renderSelection<T>(fields: Fields): RenderedSelection<T> {
  const leaves: Leaf[] = [];
  const parts: string[] = [];
  const add = (path: Leaf['path'], field: Column | SQL) => {
    const alias = path.join('.');
    // An expression's decoder is what its mapWith set (drizzle keeps it on the SQL, undeclared in its types).
    const [expression, decoder]: [string, Decoder] = is(field, Column)
      ? [`${quoted(getTableName(field.table))}.${quoted(field.name)}`, field]
      : [dialect.sqlToQuery(sql`${field}`.inlineParams()).sql, (field as unknown as { decoder?: Decoder }).decoder ?? IDENTITY];
    parts.push(`${expression} as ${quoted(alias)}`);
    leaves.push({ path, alias, decoder });
  };
  for (const [key, field] of Object.entries(fields)) {
    if (is(field, Column) || is(field, SQL)) add([key], field);
    else for (const [inner, leaf] of Object.entries(field)) add([key, inner], leaf);
  }
  return {
    text: parts.join(', '),
    rowOf(raw) {
      const row: Record<string, unknown> = {};
      for (const { path, alias, decoder } of leaves) {
        const value = raw[alias];
        const decoded = value === null || value === undefined ? null : decoder.mapFromDriverValue(value);
        if (path.length === 1) row[path[0]] = decoded;
        else ((row[path[0]] ??= {}) as Record<string, unknown>)[path[1]] = decoded;
      }
      return row as T;
    },
  };
}

/** A statement's text rendered once, with the names of the placeholders its `$n` stand for, in order. */
interface RenderedText {
  fragments: string[];
  names: string[];
}

/**
 * Statements whose text depends on a key alone (a page's rows in one order), rendered once per key:
 * `build` writes each value as `placeholder(name)`, and each call binds only the values to the
 * kept text, so the query builder's walk of the whole statement (a tenth of a list request's server
 * time went to rendering statements) runs once per key. Values are bound as given, so they must be
 * what the driver takes (a number, a string, an array literal), not a column's mapped value.
 */
export function renderedStatements<K extends string, V extends Record<string, unknown>>(
  build: (key: K, placeholder: (name: keyof V & string) => Placeholder) => SQL,
): (key: K, values: V) => SQL {
  const texts = new Map<K, RenderedText>();
  const render = (key: K): RenderedText => {
    const { sql: text, params } = dialect.sqlToQuery(build(key, (name) => sql.placeholder(name)));
    const names = params.map((param) => {
      if (!is(param, Placeholder)) throw new TypeError(`A rendered statement binds placeholders only: ${text.slice(0, 120)}`);
      return param.name;
    });
    const fragments = text.split(/\$\d+/);
    if (fragments.length !== names.length + 1) throw new TypeError(`A rendered statement's text holds a stray $n: ${text.slice(0, 120)}`);
    return { fragments, names };
  };
  return (key, values) => {
    let text = texts.get(key);
    if (!text) texts.set(key, (text = render(key)));
    return sql(text.fragments as unknown as TemplateStringsArray, ...text.names.map((name) => values[name]));
  };
}
