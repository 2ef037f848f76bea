import type { Ack } from '#shared/contracts/socket-events';

/**
 * Sends over sockets answered since the process started: plain numbers bumped on the send path (no label lookup,
 * no allocation), read by the metrics at scrape time.
 */
export const sendTally = {
  accepted: 0,
  /** refused sends by the acknowledgement's error code (422, 429, 403, 404, 409, 503) */
  refused: {} as Record<number, number>,
};

/** Counts one `message:send` acknowledgement. */
export function tallySend(response: unknown): void {
  const ack = response as Ack;
  if (ack.ok) sendTally.accepted++;
  else if (ack.ok === false) sendTally.refused[ack.error.code] = (sendTally.refused[ack.error.code] ?? 0) + 1;
}
