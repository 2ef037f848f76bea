import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FileResponse as FileInfo } from '@contracts/rest/files';
import { renderWithMantine } from '../../../jest/render';
import { FILE_REQUIRED, createFileLookup, fileKindOf, resolveFileSource } from './file-kind';
import { FileTile } from './FileTile';

const PHOTO: FileInfo = {
  code: 'F_photo',
  secureCode: 'S_photo',
  name: 'holiday.JPG',
  size: 1536,
  mime: 'image/jpeg',
  kind: 'image',
  hasThumbnail: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const fetchMock = jest.fn();

beforeEach(() => {
  fetchMock.mockReset();
  Object.assign(globalThis, { fetch: fetchMock });
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:preview'), revokeObjectURL: jest.fn() });
});

describe('file kinds', () => {
  it.each([
    ['a.png', 'image'],
    ['a.JPG', 'image'],
    ['a.jpeg', 'image'],
    ['a.gif', 'image'],
    ['a.webp', 'unknown'],
    ['png', 'unknown'],
    ['notes.txt', 'unknown'],
    ['', 'unknown'],
  ])('%s is %s', (name, kind) => expect(fileKindOf(name)).toBe(kind));

  it('needs a file or a code', () => {
    expect(() => resolveFileSource({})).toThrow(FILE_REQUIRED);
    expect(resolveFileSource({ code: 'F1' })).toEqual({ kind: 'code', code: 'F1' });
    expect(resolveFileSource({ file: PHOTO })).toEqual({ kind: 'stored', info: PHOTO });
  });
});

describe('file lookup batching', () => {
  afterEach(() => jest.useRealTimers());

  it('asks for every code requested within 300 ms in one call, and only once per code', async () => {
    jest.useFakeTimers();
    const list = jest.fn(async (codes: string[]) => (codes.includes('F_photo') ? [PHOTO] : []));
    const lookup = createFileLookup(list, 300);
    const a = lookup.get('F_photo');
    jest.advanceTimersByTime(200);
    const b = lookup.get('F_gone');
    jest.advanceTimersByTime(299);
    expect(list).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(list).toHaveBeenCalledWith(['F_photo', 'F_gone']);
    expect(await a).toEqual(PHOTO);
    expect(await b).toBeNull();
    expect(lookup.get('F_photo')).toBe(a);
    jest.advanceTimersByTime(1000);
    expect(list).toHaveBeenCalledTimes(1);
  });
});

describe('a stored image whose renditions are being made', () => {
  it('shows as a file, is asked for again, and shows its thumbnail once they are ready', async () => {
    const json = (body: unknown) => ({ status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) });
    const lists: string[] = [];
    fetchMock.mockImplementation(async (url: string) => {
      if (url !== '/api/File/List') return { status: 200, ok: true, headers: { get: () => 'image/png' }, blob: async () => ({ size: 10 }) };
      lists.push(url);
      return json([{ ...PHOTO, code: 'F_later', secureCode: 'S_later', hasThumbnail: lists.length > 1 }]);
    });
    renderWithMantine(<FileTile code="F_later" />);
    await waitFor(() => expect(screen.getByTestId('file-tile')).toHaveAttribute('data-status', 'ready'));
    expect(screen.queryByRole('img', { name: 'holiday.JPG' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('img', { name: 'holiday.JPG' })).toHaveAttribute('src', 'blob:preview'), { timeout: 4000 });
    expect(lists).toHaveLength(2);
  });
});

describe('FileTile', () => {
  it('shows the spec error without a file or code', () => {
    renderWithMantine(<FileTile />);
    expect(screen.getByTestId('file-tile-error')).toHaveTextContent('File or code is required');
  });

  it('loads an image thumbnail with the bearer header as an object URL, and revokes it on unmount', async () => {
    fetchMock.mockResolvedValue({ status: 200, ok: true, headers: { get: () => 'image/png' }, blob: async () => ({ size: 10 }) });
    const { unmount } = renderWithMantine(<FileTile file={PHOTO} variant="icon" />);
    const tile = screen.getByTestId('file-tile');
    expect(tile).toHaveAttribute('data-kind', 'image');
    expect(tile).toHaveAttribute('data-variant', 'icon');
    await waitFor(() => expect(screen.getByRole('img', { name: 'holiday.JPG' })).toHaveAttribute('src', 'blob:preview'));
    expect(fetchMock.mock.calls[0][0]).toBe('/api/File/F_photo/S_photo/Thumbnail');
    expect(screen.getByText('1.5 kB')).toBeInTheDocument();
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it('shows an unknown local file with an icon and opens the preview dialog with its size', async () => {
    const file = new File(['x'.repeat(2048)], 'notes.txt', { type: 'text/plain' });
    renderWithMantine(<FileTile file={file} />);
    const tile = screen.getByTestId('file-tile');
    await waitFor(() => expect(tile).toHaveAttribute('data-status', 'ready'));
    expect(tile).toHaveAttribute('data-kind', 'unknown');
    expect(screen.queryByRole('img')).toBeNull();
    await act(async () => fireEvent.click(tile));
    expect(screen.getByTestId('file-preview-size')).toHaveTextContent('2 kB');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
