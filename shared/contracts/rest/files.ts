/** REST answers about stored files (server/src/modules/files); the response DTO implements this. */

/** A stored file as POST /api/File/List describes it. */
export interface FileResponse {
  code: string;
  /** Must accompany the code in every file URL. */
  secureCode: string;
  name: string;
  /** Bytes. */
  size: number;
  /** Sniffed from the content. */
  mime: string;
  kind: 'image' | 'unknown';
  hasThumbnail: boolean;
  createdAt: string;
}

/** The renditions GET /api/File/{code}/{secureCode}/{variant} serves. */
export type FileVariant = 'Preview' | 'Thumbnail' | 'Icon' | 'Download';
