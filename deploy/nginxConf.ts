/**
 * A small reader for nginx configuration syntax (directives, arguments, blocks, quotes, comments),
 * so the deploy test can assert on the structure of deploy/nginx.conf rather than grep its text.
 * `nginx -t` remains the judge of validity; this only has to read what nginx reads.
 */
export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

/** Splits into words and the punctuation `{`, `}`, `;`; quotes group words, `#` starts a comment. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '{' || c === '}' || c === ';') tokens.push(text[i++]!);
    else if (c === '"' || c === "'") {
      let word = '';
      for (i++; i < text.length && text[i] !== c; i++) word += text[i] === '\\' && text[i + 1] === c ? text[++i]! : text[i]!;
      if (i >= text.length) throw new Error(`unterminated ${c} quote`);
      i++;
      tokens.push(word);
    } else {
      let word = '';
      while (i < text.length) {
        // `${name}` is a variable, not a block. Like nginx, `#` and quotes only count at a word's start.
        if (text[i] === '$' && text[i + 1] === '{') {
          const close = text.indexOf('}', i);
          if (close < 0) throw new Error('unterminated ${');
          word += text.slice(i, close + 1);
          i = close + 1;
        } else if (/[\s;{}]/.test(text[i]!)) break;
        else word += text[i++]!;
      }
      tokens.push(word);
    }
  }
  return tokens;
}

export function parseNginxConf(text: string): Directive[] {
  const tokens = tokenize(text);
  let pos = 0;
  const readBlock = (nested: boolean): Directive[] => {
    const directives: Directive[] = [];
    while (pos < tokens.length) {
      const token = tokens[pos++]!;
      if (token === '}') {
        if (!nested) throw new Error('unexpected }');
        return directives;
      }
      const words = [token];
      while (pos < tokens.length && tokens[pos] !== ';' && tokens[pos] !== '{') {
        if (tokens[pos] === '}') throw new Error(`missing ; after ${words.join(' ')}`);
        words.push(tokens[pos++]!);
      }
      const end = tokens[pos++];
      if (end === undefined) throw new Error(`unexpected end after ${words.join(' ')}`);
      const [name, ...args] = words as [string, ...string[]];
      directives.push(end === '{' ? { name, args, block: readBlock(true) } : { name, args });
    }
    if (nested) throw new Error('missing }');
    return directives;
  };
  return readBlock(false);
}

/** Directives called `name` directly inside `block`, optionally only those whose arguments match. */
export function find(block: Directive[] | undefined, name: string, ...args: string[]): Directive[] {
  return (block ?? []).filter((d) => d.name === name && args.every((a, i) => d.args[i] === a));
}

/** nginx sizes: bytes, or a number with k/K or m/M (binary units). */
export function sizeInBytes(value: string): number {
  const match = /^(\d+)([kKmM]?)$/.exec(value);
  if (!match) throw new Error(`not an nginx size: ${value}`);
  const unit = match[2]!.toLowerCase();
  return Number(match[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : 1);
}
