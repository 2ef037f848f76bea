import type { ClientToServerEvents } from '@contracts/socket-events';
import { ApiError } from '@/api/api-error';
import { type ChatMessage, chatApi } from '@/api/chat.api';
import type { ParleySocket } from '@/realtime/connection';
import { ACK_TIMEOUT_MS, liveSocket } from '../live-socket';
import { isRejection, OverloadedError, overloadedRetryAfter, RejectedError } from './send-refusals';

type SendPayload = Parameters<ClientToServerEvents['message:send']>[0];
type SendAck = Parameters<Parameters<ClientToServerEvents['message:send']>[1]>[0];

/**
 * message:send over the live socket, waiting ACK_TIMEOUT_MS for its acknowledgement. The acknowledgement is the
 * only copy of the stored message this socket is sure to get (the server may send message:new to the user's
 * other sockets only), so one that comes after the wait goes to `onLateAck` rather than being dropped, as
 * socket.io's own timeout would drop it. Rejects at the end of the wait, or at once when the socket drops (its
 * acknowledgement can no longer come).
 */
function sendOverSocket(socket: ParleySocket, payload: SendPayload, onLateAck: (message: ChatMessage) => void): Promise<SendAck> {
  return new Promise((resolve, reject) => {
    let waiting = true;
    const stopWaiting = () => {
      waiting = false;
      clearTimeout(timer);
      socket.off('disconnect', handleDisconnect);
    };
    const handleDisconnect = () => {
      stopWaiting();
      reject(new Error('socket has been disconnected'));
    };
    const timer = setTimeout(() => {
      stopWaiting();
      reject(new Error('operation has timed out'));
    }, ACK_TIMEOUT_MS);
    socket.on('disconnect', handleDisconnect);
    socket.emit('message:send', payload, (res) => {
      if (waiting) {
        stopWaiting();
        resolve(res);
      } else if (res.ok) onLateAck(res.message);
    });
  });
}

/**
 * Sends one message to the server: over the live socket (its acknowledgement carries the stored message),
 * else over REST. Resolves with the stored message; throws OverloadedError or RejectedError for those
 * refusals, any other error for a send that may not have arrived. A socket acknowledgement that comes after
 * the wait (the send already counted as failed) is handed to `onLateAck`.
 */
export async function transmitMessage(
  groupCode: string,
  pending: ChatMessage & { clientKey: string },
  onLateAck: (message: ChatMessage) => void,
): Promise<ChatMessage> {
  const body = {
    message: pending.message,
    lang: pending.language ?? undefined,
    files: pending.files,
    clientKey: pending.clientKey,
    replyToId: pending.replyTo?.code,
  };
  const socket = liveSocket();
  if (socket) {
    const res = await sendOverSocket(socket, { groupCode, ...body }, onLateAck);
    if (!res.ok) {
      const retryAfterMs = overloadedRetryAfter(res.error.code, res.error.message, res.error.data);
      if (retryAfterMs !== null) throw new OverloadedError(retryAfterMs);
      throw isRejection(res.error.code) ? new RejectedError(res.error.message) : new Error(res.error.message);
    }
    return res.message;
  }
  try {
    return await chatApi.send(groupCode, body);
  } catch (err) {
    const retryAfterMs = err instanceof ApiError ? overloadedRetryAfter(err.status, err.key, err.body?.data) : null;
    if (retryAfterMs !== null) throw new OverloadedError(retryAfterMs);
    throw err instanceof ApiError && isRejection(err.status) ? new RejectedError(err.message) : err;
  }
}
