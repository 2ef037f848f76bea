import type { FileInfo } from '@/api/file.api';
import {
  MAX_ATTACHMENTS,
  allUploaded,
  attachmentsReducer,
  canSendWith,
  filesFromClipboard,
  newAttachment,
  progressOf,
  roomFor,
  uploadedCodes,
} from './attachments';

const file = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });
const info = (code: string, size = 100): FileInfo => ({
  code,
  secureCode: `S${code}`,
  name: `${code}.png`,
  size,
  mime: 'image/png',
  kind: 'image',
  hasThumbnail: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('composer attachments', () => {
  it('uploads, reports progress, and gives the codes in the order attached', () => {
    const a = newAttachment(file('a.png', 1000));
    const b = newAttachment(file('b.txt', 10));
    expect(a.id).not.toBe(b.id);
    let list = attachmentsReducer([], { type: 'add', items: [a, b] });
    expect(list.map((x) => x.status)).toEqual(['uploading', 'uploading']);
    list = attachmentsReducer(list, { type: 'progress', id: a.id, loaded: 250, total: 1000 });
    expect(progressOf(list[0])).toBe(25);
    expect(progressOf(list[1])).toBe(0);
    list = attachmentsReducer(list, { type: 'done', id: b.id, info: info('F_b', 10) });
    expect(uploadedCodes(list)).toEqual(['F_b']);
    expect(allUploaded(list)).toBe(false);
    list = attachmentsReducer(list, { type: 'done', id: a.id, info: info('F_a', 1000) });
    expect(progressOf(list[0])).toBe(100);
    expect(uploadedCodes(list)).toEqual(['F_a', 'F_b']);
    expect(allUploaded(list)).toBe(true);
    list = attachmentsReducer(list, { type: 'remove', id: a.id });
    expect(uploadedCodes(list)).toEqual(['F_b']);
    expect(attachmentsReducer(list, { type: 'clear' })).toEqual([]);
  });

  it('keeps a failed upload with its error until retried or removed', () => {
    const a = newAttachment(file('a.png'));
    let list = attachmentsReducer([a], { type: 'failed', id: a.id, error: 'CHAT.ATTACH_FAILED' });
    expect(list[0]).toMatchObject({ status: 'failed', error: 'CHAT.ATTACH_FAILED' });
    list = attachmentsReducer(list, { type: 'retry', id: a.id });
    expect(list[0]).toMatchObject({ status: 'uploading', error: null, loaded: 0 });
  });

  it('clamps progress to 0–100 and survives an unknown total', () => {
    expect(progressOf({ status: 'uploading', loaded: 5, total: 0 })).toBe(0);
    expect(progressOf({ status: 'uploading', loaded: 150, total: 100 })).toBe(100);
  });

  it('sends with text or a file, and only once every upload finished', () => {
    const a = newAttachment(file('a.png'));
    expect(canSendWith('', [])).toBe(false);
    expect(canSendWith('  \n', [])).toBe(false);
    expect(canSendWith('hi', [])).toBe(true);
    expect(canSendWith('', [a])).toBe(false);
    expect(canSendWith('hi', [a])).toBe(false);
    const done = attachmentsReducer([a], { type: 'done', id: a.id, info: info('F_a') });
    expect(canSendWith('', done)).toBe(true);
    const failed = attachmentsReducer([a], { type: 'failed', id: a.id, error: 'x' });
    expect(canSendWith('hi', failed)).toBe(false);
  });

  it('takes at most 10 files per message', () => {
    expect(roomFor(0, 3)).toBe(3);
    expect(roomFor(8, 5)).toBe(2);
    expect(roomFor(MAX_ATTACHMENTS, 1)).toBe(0);
    const many = Array.from({ length: 12 }, (_, i) => newAttachment(file(`${i}.txt`)));
    expect(attachmentsReducer([], { type: 'add', items: many })).toHaveLength(MAX_ATTACHMENTS);
  });

  it('takes the files of a paste, and nothing from pasted text', () => {
    const png = file('image.png');
    const item = (kind: string, f: File | null) => ({ kind, getAsFile: () => f }) as unknown as DataTransferItem;
    const data = (items: DataTransferItem[], files: File[] = []) => ({ items: items as unknown as DataTransferItemList, files: files as unknown as FileList });
    expect(filesFromClipboard(data([item('string', null), item('file', png)]))).toEqual([png]);
    expect(filesFromClipboard(data([item('string', null)]))).toEqual([]);
    expect(filesFromClipboard(data([], [png]))).toEqual([png]);
    expect(filesFromClipboard(null)).toEqual([]);
  });
});
