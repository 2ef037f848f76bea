/**
 * Groups are spread over this many insert lanes; each lane runs one statement at a time, so a group's messages
 * are stored in the order they arrived, and lanes never share a group. One lane: a statement's cost is mostly
 * per statement, and with two, each carried half as many messages; one lane took Postgres from 970 to 750 µs of
 * CPU per message at 500 msg/s (410 to 310 at 1,000) with no loss in latency (docs/hot-path.md, "Capacity").
 */
export const INSERT_LANES = 1;

/** A stable lane per group code (FNV-1a), of `lanes`. */
export function laneOf(groupCode: string, lanes = INSERT_LANES): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < groupCode.length; i++) hash = Math.imul(hash ^ groupCode.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
