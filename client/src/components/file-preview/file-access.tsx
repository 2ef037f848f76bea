import { type ReactNode, createContext, useContext, useMemo } from 'react';
import type { FileResponse as FileInfo, FileVariant } from '@contracts/rest/files';
import { type FileLookup, createFileLookup } from './file-kind';

/** How the kit reaches stored files. The app provides it (features/files), so the kit itself calls no API. */
export interface FileAccess {
  /** Describes stored files by code; codes it does not know are left out. */
  list: (codes: string[]) => Promise<FileInfo[]>;
  /** The bytes of one rendition of a stored file. */
  bytes: (file: Pick<FileInfo, 'code' | 'secureCode'>, variant: FileVariant) => Promise<Blob>;
}

interface FileAccessValue {
  /** Codes asked within 300 ms are described in one call (spec section 9). */
  lookup: FileLookup;
  bytes: FileAccess['bytes'];
}

const FileAccessContext = createContext<FileAccessValue | null>(null);

/** Gives FileTile and FilePreviewDialog below it their way to stored files. `access` should be stable. */
export function FileAccessProvider({ access, children }: { access: FileAccess; children: ReactNode }) {
  const value = useMemo(() => ({ lookup: createFileLookup(access.list), bytes: access.bytes }), [access]);
  return <FileAccessContext.Provider value={value}>{children}</FileAccessContext.Provider>;
}

export function useFileAccess(): FileAccessValue {
  const value = useContext(FileAccessContext);
  if (!value) throw new Error('FileTile and FilePreviewDialog need a FileAccessProvider above them');
  return value;
}
