import { ApiError } from '@/api/api-error';
import { type ChatMessage, chatApi } from '@/api/chat.api';
import { ACK_TIMEOUT_MS, liveSocket } from '../live-socket';
import { isRejection, OverloadedError, overloadedRetryAfter, RejectedError } from './send-refusals';

/**
 * Sends one message to the server: over the live socket (its acknowledgement carries the stored message),
 * else over REST. Resolves with the stored message; throws OverloadedError or RejectedError for those
 * refusals, any other error for a send that may not have arrived.
 */
export async function transmitMessage(groupCode: string, pending: ChatMessage & { clientKey: string }): Promise<ChatMessage> {
  const body = {
    message: pending.message,
    lang: pending.language ?? undefined,
    files: pending.files,
    clientKey: pending.clientKey,
    replyToId: pending.replyTo?.code,
  };
  const socket = liveSocket();
  if (socket) {
    const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('message:send', { groupCode, ...body });
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
