/**
 * Groups are spread over this many insert lanes; each lane runs one statement at a time, so a group's messages
 * are stored in the order they arrived, and lanes never share a group. One lane: a statement's cost is mostly
 * per statement, and with two, each carried half as many messages; one lane cut Postgres's CPU per message by
 * about a quarter at 500 msg/s with no loss in latency (docs/message-path.md, the insert queue).
 */
export const INSERT_LANES = 1;

/** A stable lane per group code (FNV-1a), of `lanes`. */
export function laneOf(groupCode: string, lanes = INSERT_LANES): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < groupCode.length; i++) hash = Math.imul(hash ^ groupCode.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
