import { UNREAD_RELEASE_STEP } from './modules/chat/unread/unread.service';
import { APPLY_READ, COUNT_RELEASED, FILL, PUSH_COUNTS } from './modules/chat/unread/unread-counts.scripts';
import { FANOUT_LINE, ROOM_LINE } from './fanout/fanout-entry';
import { HEARTBEAT, REGISTER, REGISTRY, ROUTING, SUBSCRIBE, UNREGISTER } from './fanout/fanout-routing.scripts';
import { LuaPiece, luaPiece, luaScript } from './fanout/lua-script';
import { NO_RELEASE_STEP } from './fanout/ordering-gate';
import { flushScript, GATE_RELEASE, gateScript, STALLED } from './fanout/ordering-gate.scripts';
import { NOW_MS } from './fanout/redis-clock.scripts';

/** What a script may read without declaring it: Redis' own globals and Lua's base functions. */
const REDIS_GLOBALS = new Set(['redis', 'cjson', 'KEYS', 'ARGV', 'table', 'string', 'math', 'tonumber', 'tostring', 'ipairs', 'pairs', 'unpack', 'type']);

const KEYWORDS = new Set('and break do else elseif end false for function if in local nil not or repeat return then true until while'.split(' '));
const BINARY = new Set(['+', '-', '*', '/', '%', '^', '..', '==', '~=', '<', '<=', '>', '>=', 'and', 'or']);

interface Token {
  kind: 'name' | 'keyword' | 'literal' | 'symbol' | 'eof';
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const longBracket = (at: number): number => {
    const open = /^\[(=*)\[/.exec(source.slice(at));
    if (!open) return -1;
    const close = source.indexOf(`]${open[1]}]`, at + open[0].length);
    if (close < 0) throw new Error(`unfinished long bracket at ${at}`);
    return close + open[1].length + 2;
  };
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
    } else if (rest.startsWith('--')) {
      const end = longBracket(i + 2);
      i = end >= 0 ? end : i + (/^[^\n]*/.exec(rest)?.[0].length ?? rest.length);
    } else if (rest[0] === '[' && longBracket(i) >= 0) {
      const end = longBracket(i);
      tokens.push({ kind: 'literal', text: source.slice(i, end) });
      i = end;
    } else if (rest[0] === "'" || rest[0] === '"') {
      let j = i + 1;
      while (source[j] !== rest[0]) {
        if (j >= source.length || source[j] === '\n') throw new Error(`unfinished string at ${i}`);
        j += source[j] === '\\' ? 2 : 1;
      }
      tokens.push({ kind: 'literal', text: source.slice(i, j + 1) });
      i = j + 1;
    } else {
      const word =
        /^(0[xX][0-9a-fA-F]+|\d+(?:\.(?!\.)\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|^([A-Za-z_]\w*)|^(\.\.\.|\.\.|==|~=|<=|>=|[-+*/%^#<>=(){}[\];:,.])/.exec(
          rest,
        );
      if (!word) throw new Error(`unexpected ${JSON.stringify(rest.slice(0, 20))}`);
      if (word[1]) tokens.push({ kind: 'literal', text: word[1] });
      else if (word[2]) tokens.push({ kind: KEYWORDS.has(word[2]) ? 'keyword' : 'name', text: word[2] });
      else tokens.push({ kind: 'symbol', text: word[3] });
      i += word[0].length;
    }
  }
  tokens.push({ kind: 'eof', text: '' });
  return tokens;
}

/** The names a Lua 5.1 chunk reads or assigns without a local of that name in scope, and its top-level locals. */
function analyse(source: string): { free: Set<string>; topLevel: string[] } {
  const tokens = tokenize(source);
  const scopes: Set<string>[] = [];
  const free = new Set<string>();
  const topLevel: string[] = [];
  let at = 0;
  const peek = (ahead = 0) => tokens[at + ahead];
  const is = (text: string, ahead = 0) => peek(ahead).kind !== 'literal' && peek(ahead).text === text;
  const accept = (text: string) => is(text) && ++at > 0;
  const expect = (text: string) => {
    if (!accept(text)) throw new Error(`expected '${text}' near '${peek().text}' (token ${at})`);
  };
  const name = () => {
    if (peek().kind !== 'name') throw new Error(`expected a name near '${peek().text}' (token ${at})`);
    return tokens[at++].text;
  };
  const declare = (...names: string[]) => {
    names.forEach((n) => scopes[scopes.length - 1].add(n));
    if (scopes.length === 1) topLevel.push(...names);
  };
  const use = (n: string) => {
    if (!scopes.some((s) => s.has(n))) free.add(n);
  };
  const scoped = (body: () => void, ...names: string[]) => {
    scopes.push(new Set());
    declare(...names);
    body();
    scopes.pop();
  };
  const blockEnds = () => ['end', 'else', 'elseif', 'until', ''].includes(peek().text) && peek().kind !== 'literal';

  const block = () => {
    while (!blockEnds()) statement();
  };
  const funcBody = (...implicit: string[]) => {
    expect('(');
    const params = [...implicit];
    while (!accept(')')) {
      params.push(accept('...') ? '...' : name());
      accept(',');
    }
    scoped(block, ...params);
    expect('end');
  };
  const args = () => {
    if (peek().kind === 'literal') at++;
    else if (is('{')) table();
    else {
      expect('(');
      if (!accept(')')) {
        expressionList();
        expect(')');
      }
    }
  };
  const suffixed = () => {
    if (accept('(')) {
      expression();
      expect(')');
    } else use(name());
    for (;;) {
      if (accept('.')) name();
      else if (accept('[')) {
        expression();
        expect(']');
      } else if (accept(':')) {
        name();
        args();
      } else if (is('(') || is('{') || peek().kind === 'literal') args();
      else return;
    }
  };
  const table = () => {
    expect('{');
    while (!accept('}')) {
      if (accept('[')) {
        expression();
        expect(']');
        expect('=');
      } else if (peek().kind === 'name' && is('=', 1)) at += 2;
      expression();
      if (!accept(',')) accept(';');
    }
  };
  const simple = () => {
    if (peek().kind === 'literal' || ['nil', 'true', 'false', '...'].includes(peek().text)) at++;
    else if (accept('function')) funcBody();
    else if (is('{')) table();
    else suffixed();
  };
  const expression = (): void => {
    if (accept('not') || accept('-') || accept('#')) return expression();
    simple();
    while (BINARY.has(peek().text) && peek().kind !== 'literal') {
      at++;
      if (accept('not') || accept('-') || accept('#')) expression();
      else simple();
    }
  };
  const expressionList = () => {
    expression();
    while (accept(',')) expression();
  };
  const statement = () => {
    if (accept(';') || accept('break')) return;
    if (accept('return')) {
      if (!blockEnds() && !is(';')) expressionList();
    } else if (accept('do')) {
      scoped(block);
      expect('end');
    } else if (accept('while')) {
      expression();
      expect('do');
      scoped(block);
      expect('end');
    } else if (accept('repeat')) {
      scoped(() => {
        block();
        expect('until');
        expression();
      });
    } else if (accept('if')) {
      do {
        expression();
        expect('then');
        scoped(block);
      } while (accept('elseif'));
      if (accept('else')) scoped(block);
      expect('end');
    } else if (accept('for')) {
      const names = [name()];
      if (accept('=')) expressionList();
      else {
        while (accept(',')) names.push(name());
        expect('in');
        expressionList();
      }
      expect('do');
      scoped(block, ...names);
      expect('end');
    } else if (accept('function')) {
      const first = name();
      use(first);
      let method = false;
      while (is('.') || is(':')) {
        method = is(':');
        at++;
        name();
      }
      funcBody(...(method ? ['self'] : []));
    } else if (accept('local')) {
      if (accept('function')) {
        declare(name());
        funcBody();
      } else {
        const names = [name()];
        while (accept(',')) names.push(name());
        if (accept('=')) expressionList();
        declare(...names);
      }
    } else {
      suffixed();
      while (accept(',')) suffixed();
      if (accept('=')) expressionList();
    }
  };

  scoped(block);
  if (peek().kind !== 'eof') throw new Error(`unexpected '${peek().text}' (token ${at})`);
  return { free, topLevel };
}

const undeclared = (source: string, allowed: Iterable<string> = []) => {
  const known = new Set([...REDIS_GLOBALS, ...allowed]);
  return [...analyse(source).free].filter((n) => !known.has(n)).sort();
};

const pieces: LuaPiece[] = [];
const collect = (piece: LuaPiece) => {
  if (pieces.includes(piece)) return;
  pieces.push(piece);
  piece.uses.forEach(collect);
};
[NOW_MS, ROOM_LINE, FANOUT_LINE, REGISTRY, ROUTING, GATE_RELEASE, PUSH_COUNTS, COUNT_RELEASED, NO_RELEASE_STEP.lua].forEach(collect);

const scripts: Record<string, string> = {
  REGISTER,
  SUBSCRIBE,
  HEARTBEAT,
  UNREGISTER,
  STALLED,
  APPLY_READ,
  FILL,
  'gate, no release step': gateScript(NO_RELEASE_STEP.lua),
  'gate, unread release step': gateScript(UNREAD_RELEASE_STEP.lua),
  'flush, no release step': flushScript(NO_RELEASE_STEP.lua),
  'flush, unread release step': flushScript(UNREAD_RELEASE_STEP.lua),
};

describe('Lua scripts', () => {
  describe('the free-name check itself', () => {
    it('finds a name a fragment reads from the script around it', () => {
      expect(undeclared('local function step(seq) return group .. seq end')).toEqual(['group']);
      expect(undeclared('local x = x')).toEqual(['x']);
      expect(undeclared('answers[#answers + 1] = 1')).toEqual(['answers']);
      expect(undeclared('ownEntry = 1')).toEqual(['ownEntry']);
      expect(undeclared('function route() end')).toEqual(['route']);
      expect(undeclared('for i = 1, 2 do end local s = i')).toEqual(['i']);
      expect(undeclared('if true then local y = 1 end return y')).toEqual(['y']);
    });

    it('knows locals, parameters, loop variables, fields, table keys, strings and comments', () => {
      const lua = `-- group is not read here
local a, b = 1, [[ group ]]
local function f(p, ...) return p.group, p:answers(), { group = 1, [a] = b }, #p, not p end
for k, v in ipairs({}) do f(k, v) end
repeat local r = 1 until r == 1
local s = 'route(' .. "ownEntry" .. string.format('%d', 1)
return f(a)`;
      expect(undeclared(lua)).toEqual([]);
    });
  });

  it.each(Object.entries(scripts))('%s reads no name it does not declare', (_, source) => {
    expect(undeclared(source)).toEqual([]);
  });

  it.each(pieces.map((p) => [p.name, p] as const))('the piece %s defines only itself and reads only what it names, never KEYS or ARGV', (name, piece) => {
    const { topLevel } = analyse(piece.lua);
    expect(topLevel).toEqual([name]);
    expect(
      undeclared(
        piece.lua,
        piece.uses.map((p) => p.name),
      ),
    ).toEqual([]);
    expect([...analyse(piece.lua).free].filter((n) => n === 'KEYS' || n === 'ARGV')).toEqual([]);
  });

  it('includes each piece once, after the pieces it uses, and the script text last', () => {
    const base = luaPiece('base', [], 'local function base() end');
    const top = luaPiece('top', [base], 'local function top() return base() end');
    expect(luaScript([top, base], 'return top()')).toBe('local function base() end\nlocal function top() return base() end\nreturn top()');
  });
});
