import type { FileInfo } from '@/api/file.api';
import { canSend } from './chat-logic';

/** The server takes at most 10 file codes per message (SendMessageDto). */
export const MAX_ATTACHMENTS = 10;

export type AttachmentStatus = 'uploading' | 'done' | 'failed';

/** A file attached in the composer: uploaded at once, its code sent with the message. */
export interface Attachment {
  id: string;
  file: File;
  status: AttachmentStatus;
  loaded: number;
  total: number;
  /** The stored file once uploaded. */
  info: FileInfo | null;
  /** A translation key (or server message) when the upload failed. */
  error: string | null;
}

export type AttachmentAction =
  | { type: 'add'; items: Attachment[] }
  | { type: 'progress'; id: string; loaded: number; total: number }
  | { type: 'done'; id: string; info: FileInfo }
  | { type: 'failed'; id: string; error: string }
  | { type: 'retry'; id: string }
  | { type: 'remove'; id: string }
  | { type: 'clear' };

let sequence = 0;

export function newAttachment(file: File): Attachment {
  sequence += 1;
  return { id: `att-${Date.now().toString(36)}-${sequence}`, file, status: 'uploading', loaded: 0, total: file.size, info: null, error: null };
}

const update = (state: Attachment[], id: string, change: Partial<Attachment>): Attachment[] => state.map((a) => (a.id === id ? { ...a, ...change } : a));

export function attachmentsReducer(state: Attachment[], action: AttachmentAction): Attachment[] {
  switch (action.type) {
    case 'add':
      return [...state, ...action.items].slice(0, MAX_ATTACHMENTS);
    case 'progress':
      return update(state, action.id, { loaded: action.loaded, total: action.total || state.find((a) => a.id === action.id)?.total || 0 });
    case 'done':
      return update(state, action.id, { status: 'done', info: action.info, loaded: action.info.size, total: action.info.size, error: null });
    case 'failed':
      return update(state, action.id, { status: 'failed', error: action.error });
    case 'retry':
      return update(state, action.id, { status: 'uploading', loaded: 0, error: null });
    case 'remove':
      return state.filter((a) => a.id !== action.id);
    case 'clear':
      return [];
  }
}

/** Upload progress in whole percent (0–100). */
export function progressOf(a: Pick<Attachment, 'status' | 'loaded' | 'total'>): number {
  if (a.status === 'done') return 100;
  if (a.total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((a.loaded / a.total) * 100)));
}

/** The codes to send, in the order the files were attached. */
export const uploadedCodes = (list: readonly Attachment[]): string[] => list.filter((a) => a.status === 'done' && a.info).map((a) => (a.info as FileInfo).code);

/** Every attached file has finished uploading (a failed one must be retried or removed first). */
export const allUploaded = (list: readonly Attachment[]): boolean => list.every((a) => a.status === 'done');

/** Spec section 5: text or an attached file; and no upload still running or failed. */
export const canSendWith = (text: string, list: readonly Attachment[]): boolean => allUploaded(list) && canSend(text, list.length);

/** Files pasted into the composer (a screenshot, files copied in a file manager); none for plain text. */
export function filesFromClipboard(data: Pick<DataTransfer, 'items' | 'files'> | null | undefined): File[] {
  if (!data) return [];
  const fromItems = Array.from(data.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.getAsFile())
    .filter((f): f is File => f !== null);
  return fromItems.length ? fromItems : Array.from(data.files ?? []);
}

/** How many more files fit, given those already attached. */
export const roomFor = (attached: number, offered: number): number => Math.max(0, Math.min(offered, MAX_ATTACHMENTS - attached));
