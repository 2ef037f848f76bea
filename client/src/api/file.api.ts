import type { FileResponse, FileVariant } from '@contracts/rest/files';
import { http } from './http';

export type { FileVariant };
/** A stored file as POST /api/File/List describes it. */
export type FileInfo = FileResponse;

export const fileUrl = (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant): string =>
  `/api/File/${encodeURIComponent(file.code)}/${encodeURIComponent(file.secureCode)}/${variant}`;

export const fileApi = {
  // Not cached here: the file lookup keeps each answer, except an image's whose renditions are still being made,
  // which it asks for again.
  list: (codeList: string[]) => http.post<FileInfo[]>('/api/File/List', { codeList }),
  /** Deletes a file the caller uploaded (its bytes stop counting against their storage quota). */
  remove: (code: string) => http.delete<void>(`/api/File/${encodeURIComponent(code)}`, { handleErrors: false }),
  /** The bytes need the bearer header, so they come through the client and never as a plain <img src>. */
  bytes: (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant) =>
    http.get<Blob>(fileUrl(file, variant), { responseType: 'blob', handleErrors: false }),
};
