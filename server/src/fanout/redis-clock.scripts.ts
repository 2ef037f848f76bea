import { luaPiece } from './lua-script';

/**
 * `nowMs()`: now in ms by the Redis clock, for scripts: one clock for every node, and a script that waited in a
 * client's queue through an outage reads the time it runs at.
 */
export const NOW_MS = luaPiece(
  'nowMs',
  [],
  `local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`,
);
