import { http } from './http';

/** A stored file as POST /api/File/List describes it. */
export interface FileInfo {
  code: string;
  /** Must accompany the code in every file URL. */
  secureCode: string;
  name: string;
  size: number;
  mime: string;
  kind: 'image' | 'unknown';
  hasThumbnail: boolean;
  createdAt: string;
}

export type FileVariant = 'Preview' | 'Thumbnail' | 'Icon' | 'Download';

export const fileUrl = (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant): string =>
  `/api/File/${encodeURIComponent(file.code)}/${encodeURIComponent(file.secureCode)}/${variant}`;

export const fileApi = {
  list: (codeList: string[]) => http.post<FileInfo[]>('/api/File/List', { codeList }, { cache: true }),
  /** The bytes need the bearer header, so they come through the client and never as a plain <img src>. */
  bytes: (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant) =>
    http.get<Blob>(fileUrl(file, variant), { responseType: 'blob', handleErrors: false }),
};
