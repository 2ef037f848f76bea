/**
 * Groups are spread over this many insert lanes; each lane runs one statement at a time, so a group's messages
 * are stored in the order they arrived, and lanes never share a group.
 */
export const INSERT_LANES = 2;

/** A stable lane per group code (FNV-1a). */
export function laneOf(groupCode: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < groupCode.length; i++) hash = Math.imul(hash ^ groupCode.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % INSERT_LANES;
}
