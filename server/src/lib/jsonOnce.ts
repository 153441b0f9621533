import type { Context } from 'koa';

/**
 * Sends a body built from a kept answer (services/readMemo.ts) as JSON text serialized once per
 * answer: until the next write every caller asking the same question gets the same answer object,
 * so its text is kept beside it (weakly, gone with the answer). For a kept list page, serializing
 * was the largest cost left. `body` must depend on nothing but the answer and what its key holds.
 */
export function jsonOnce<A extends object>() {
  const texts = new WeakMap<A, string>();
  return (ctx: Context, answer: A, body: (answer: A) => object): void => {
    let text = texts.get(answer);
    if (text === undefined) texts.set(answer, (text = JSON.stringify(body(answer))));
    ctx.type = 'application/json';
    ctx.body = text;
  };
}
