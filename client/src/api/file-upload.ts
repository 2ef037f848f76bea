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
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * One file to POST /api/File as multipart, through XMLHttpRequest because fetch reports no upload
 * progress. Fails with an ApiError (status 0 when the network is down or the upload was aborted).
 */
export function uploadFile(file: Blob & { name?: string }, options: UploadOptions): Promise<FileInfo> {
  return new Promise<FileInfo>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append('type', options.type ?? 'ChatMessage');
    if (options.groupCode) form.append('groupCode', options.groupCode);
    form.append('file', file, file.name ?? 'file');
    xhr.open('POST', FILE_UPLOAD_URL);
    xhr.setRequestHeader('Accept', 'application/json');
    if (options.token) xhr.setRequestHeader('Authorization', `Bearer ${options.token}`);
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    const fail = () => reject(new ApiError(0, 'POST', FILE_UPLOAD_URL, null));
    xhr.onerror = fail;
    xhr.onabort = fail;
    xhr.onload = () => {
      let body: unknown = null;
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
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
