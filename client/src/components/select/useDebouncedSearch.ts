import { useEffect, useRef, useState } from 'react';

export interface DebouncedSearchOptions {
  /** Milliseconds of quiet typing before the search runs. */
  delayMs: number;
  /** The search runs only for a trimmed term longer than this many characters. Default: 0. */
  longerThan?: number;
}

export interface DebouncedSearchState<T> {
  items: T[];
  loading: boolean;
  /** True while the term is too short to search. */
  tooShort: boolean;
}

/** True when a term is long enough to search (strictly longer than `longerThan`). */
export const isSearchable = (term: string, longerThan = 0): boolean => term.trim().length > longerThan;

/**
 * Runs `search` for the term once typing pauses for `delayMs`; a term not longer than `longerThan`
 * clears the results without a call. Answers to an older term are dropped.
 */
export function useDebouncedSearch<T>(
  term: string,
  search: ((term: string) => Promise<T[]>) | undefined,
  { delayMs, longerThan = 0 }: DebouncedSearchOptions,
): DebouncedSearchState<T> {
  const [state, setState] = useState<{ items: T[]; loading: boolean }>({ items: [], loading: false });
  const searchRef = useRef(search);
  searchRef.current = search;
  const query = term.trim();
  const tooShort = !isSearchable(query, longerThan);

  useEffect(() => {
    if (tooShort || !searchRef.current) {
      setState({ items: [], loading: false });
      return;
    }
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      const run = searchRef.current;
      if (!run) return;
      run(query).then(
        (items) => current && setState({ items, loading: false }),
        () => current && setState({ items: [], loading: false }),
      );
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, tooShort, delayMs]);

  return { ...state, tooShort };
}
