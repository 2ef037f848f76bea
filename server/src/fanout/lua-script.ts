/**
 * A piece of Lua shared by scripts: one `local function <name>(…)`, a constructor taking its inputs as parameters
 * and returning its functions (or a pure function). Its text reads nothing but Redis' own globals and the pieces
 * it names in `uses`; KEYS and ARGV are read by the scripts alone (server/src/lua-scripts.spec.ts checks both).
 */
export interface LuaPiece {
  readonly name: string;
  readonly uses: readonly LuaPiece[];
  readonly lua: string;
}

export const luaPiece = (name: string, uses: readonly LuaPiece[], lua: string): LuaPiece => ({ name, uses, lua });

/**
 * A script Redis runs: the pieces it names (each once, each after the pieces it uses), then its own text, which
 * starts by declaring its inputs (KEYS and ARGV, by name). The pieces come first, so they cannot see the inputs.
 */
export function luaScript(uses: readonly LuaPiece[], body: string): string {
  const included: LuaPiece[] = [];
  const include = (piece: LuaPiece) => {
    if (included.includes(piece)) return;
    piece.uses.forEach(include);
    included.push(piece);
  };
  uses.forEach(include);
  return [...included.map((p) => p.lua), body].join('\n');
}
