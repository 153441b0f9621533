import type { Context } from 'koa';

/**
 * Sends a body built from a kept answer (services/readMemo.ts) as JSON text serialized once per
 * answer: until the next write every caller asking the same question gets the same answer object,
 * so its text is kept beside it (weakly, gone with the answer). For a kept list page, serializing
 * was the largest cost left. `body` must depend on nothing but the answer and what its key holds.
 */
export function jsonOnce<A extends object>() {
  const texts = new WeakMap<A, string>();
  return (ctx: Context, answer: A, body: (answer: A) => Record<string, unknown>): void => {
    let text = texts.get(answer);
    if (text === undefined) texts.set(answer, (text = jsonOfFields(body(answer))));
    ctx.type = 'application/json';
    ctx.body = text;
  };
}

// JSON.stringify returns undefined for what JSON cannot hold (undefined, a function); its type says string.
const stringify = JSON.stringify as (value: unknown) => string | undefined;

/**
 * JSON.stringify of an object whose fields may hold one value twice (a list page's tickets, sent
 * as `tickets` and as `data`): each such value is serialized once. On a page of 25 tickets with
 * descriptions of some 400 characters that was half the serializing (66 µs of 127, Node 20).
 */
export function jsonOfFields(body: Record<string, unknown>): string {
  const written = new Map<unknown, string>();
  const fields: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    let text = written.get(value);
    if (text === undefined) {
      text = stringify(value);
      // A field JSON leaves out (undefined, a function) is left out here too.
      if (text === undefined) continue;
      if (typeof value === 'object' && value !== null) written.set(value, text);
    }
    fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}
