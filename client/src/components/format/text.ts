/** Toolbar limits (spec section 9). */
export const HEADER_MAX = 40;
export const SUBHEADER_MAX = 100;
/** Links longer than this show their first and last LINK_KEEP characters. */
export const LINK_MAX = 30;
export const LINK_KEEP = 12;

/** Cuts text to at most `max` characters, the last being an ellipsis when anything was cut. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** A path over 30 characters becomes its first 12 and last 12 characters around an ellipsis. */
export function shortenLink(path: string | null | undefined): string {
  const value = path ?? '';
  const chars = Array.from(value);
  if (chars.length <= LINK_MAX) return value;
  return `${chars.slice(0, LINK_KEEP).join('')}…${chars.slice(-LINK_KEEP).join('')}`;
}
