import type { FileResponse, FileVariant } from '@contracts/rest/files';
import { http } from './http';

export type { FileVariant };
/** A stored file as POST /api/File/List describes it. */
export type FileInfo = FileResponse;

export const fileUrl = (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant): string =>
  `/api/File/${encodeURIComponent(file.code)}/${encodeURIComponent(file.secureCode)}/${variant}`;

export const fileApi = {
  list: (codeList: string[]) => http.post<FileInfo[]>('/api/File/List', { codeList }, { cache: true }),
  /** The bytes need the bearer header, so they come through the client and never as a plain <img src>. */
  bytes: (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant) =>
    http.get<Blob>(fileUrl(file, variant), { responseType: 'blob', handleErrors: false }),
};
