import { ApiError, isErrorEnvelope } from './api-error';
import type { FileInfo } from './file.api';

export const FILE_UPLOAD_URL = '/api/File';

export interface UploadOptions {
  /** The upload context of POST /api/File. Default 'ChatMessage'. */
  type?: 'ChatGroup' | 'ChatMessage';
  /** Shares the file in this group at once (the caller must be in it). */
  groupCode?: string;
  /** The bearer token (sent to our own origin only). */
  token: string | null;
  /**
   * Called once when the server answers 401 (the token expired meanwhile): refreshes the session and gives
   * the new token, or null when it could not be refreshed. The upload is then sent again, once.
   */
  refreshToken?: () => Promise<string | null>;
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * One file to POST /api/File as multipart, through XMLHttpRequest because fetch reports no upload
 * progress. A 401 refreshes the token once (options.refreshToken) and sends the file again.
 * Fails with an ApiError (status 0 when the network is down or the upload was aborted).
 */
export async function uploadFile(file: Blob & { name?: string }, options: UploadOptions): Promise<FileInfo> {
  try {
    return await sendOnce(file, options, options.token);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401 || !options.refreshToken || options.signal?.aborted) throw err;
    const token = await options.refreshToken().catch(() => null);
    if (!token || options.signal?.aborted) throw err;
    options.onProgress?.(0, file.size);
    return sendOnce(file, options, token);
  }
}

function sendOnce(file: Blob & { name?: string }, options: UploadOptions, token: string | null): Promise<FileInfo> {
  return new Promise<FileInfo>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append('type', options.type ?? 'ChatMessage');
    if (options.groupCode) form.append('groupCode', options.groupCode);
    form.append('file', file, file.name ?? 'file');
    xhr.open('POST', FILE_UPLOAD_URL);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    const fail = () => reject(new ApiError(0, 'POST', FILE_UPLOAD_URL, null));
    xhr.onerror = fail;
    xhr.onabort = fail;
    xhr.onload = () => {
      options.signal?.removeEventListener('abort', abort);
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        options.onProgress?.(file.size, file.size);
        resolve(body as FileInfo);
      } else reject(new ApiError(xhr.status, 'POST', FILE_UPLOAD_URL, isErrorEnvelope(body) ? body : null));
    };
    const abort = () => xhr.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    xhr.send(form);
  });
}
