import { fileApi } from '@/api/file.api';
import type { FileAccess } from '@/components/file-preview/file-access';

/** The app's stored files for the kit's file tiles and previews: POST /api/File/List and the bearer-authorised bytes. */
export const appFileAccess: FileAccess = { list: fileApi.list, bytes: fileApi.bytes };
