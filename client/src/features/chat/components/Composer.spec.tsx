import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useRef } from 'react';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { renderWithMantine } from '../../../../jest/render';
import { Composer } from './Composer';
import { VirtualList } from './VirtualList';

/** A stand-in for the browser's XMLHttpRequest: the test drives upload progress and the answer. */
class FakeXhr {
  static all: FakeXhr[] = [];
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  async answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    await act(async () => this.onload?.());
  }
}

const stored = (code: string, name: string) => ({
  code,
  secureCode: `S_${code}`,
  name,
  size: 4,
  mime: 'image/png',
  kind: 'image',
  hasThumbnail: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

beforeEach(() => {
  FakeXhr.all = [];
  Object.assign(globalThis, { XMLHttpRequest: FakeXhr });
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:local'), revokeObjectURL: jest.fn() });
  sessionStore.token = 'T';
  // The interface is Polish while the profile still says English: the composer follows the interface.
  sessionStore.user = { code: 'U_ada', name: 'Ada', surname: 'L', avatar: null, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  preferencesStore.language = 'pol';
});
afterEach(() => {
  preferencesStore.language = 'eng';
});

function paste(files: File[]) {
  const items = files.map((f) => ({ kind: 'file', getAsFile: () => f }));
  fireEvent.paste(screen.getByTestId('chat-composer-input'), { clipboardData: { items, files } });
}

describe('Composer', () => {
  it('attaches pasted files, uploads each with progress, and sends their codes (with the chosen language) once uploaded', async () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    const send = screen.getByTestId('chat-send');
    expect(send).toBeDisabled();
    expect(screen.getByTestId('chat-language')).toHaveValue('pol');

    paste([new File(['abcd'], 'image.png', { type: 'image/png' }), new File(['x'], 'notes.txt')]);
    expect(screen.getAllByTestId('chat-attachment')).toHaveLength(2);
    expect(FakeXhr.all).toHaveLength(2);
    const [img, txt] = FakeXhr.all;
    expect([img.method, img.url, img.headers.Authorization]).toEqual(['POST', '/api/File', 'Bearer T']);
    expect(img.body?.get('groupCode')).toBe('G_one');
    expect(img.body?.get('type')).toBe('ChatMessage');
    expect((img.body?.get('file') as File).name).toBe('image.png');
    expect(screen.getAllByTestId('file-tile').map((t) => t.getAttribute('data-kind'))).toEqual(['image', 'unknown']);
    await waitFor(() => expect(screen.getAllByTestId('file-tile').map((t) => t.getAttribute('data-status'))).toEqual(['ready', 'ready']));
    expect(send).toBeDisabled();

    img.progress(2, 4);
    expect(screen.getAllByTestId('chat-attachment-progress')[0]).toHaveAttribute('data-value', '50');
    await img.answer(201, stored('F_img', 'image.png'));
    expect(send).toBeDisabled();
    await txt.answer(500, { code: 500, message: 'SHARED.ERROR.INTERNAL' });
    expect(screen.getByTestId('chat-attachment-error')).toHaveTextContent('Upload failed');
    expect(send).toBeDisabled();

    // The failed one is removed: the image alone may be sent, without text.
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(screen.getAllByTestId('chat-attachment')).toHaveLength(1);
    expect(send).toBeEnabled();
    fireEvent.change(screen.getByTestId('chat-language'), { target: { value: 'ger' } });
    fireEvent.click(send);
    expect(onSend).toHaveBeenCalledWith('', ['F_img'], 'ger');
    expect(screen.queryAllByTestId('chat-attachment')).toHaveLength(0);
  });

  it('hides and shows the strip, and retries a failed upload', async () => {
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={jest.fn()} />);
    paste([new File(['abcd'], 'a.gif', { type: 'image/gif' })]);
    await waitFor(() => expect(screen.getByTestId('file-tile')).toHaveAttribute('data-status', 'ready'));
    await FakeXhr.all[0].answer(413, { code: 413, message: 'SHARED.ERROR.PAYLOAD_TOO_LARGE' });
    expect(screen.getByTestId('chat-attachment-error')).toHaveTextContent('The file is too big');
    fireEvent.click(screen.getByTestId('chat-attachment-retry'));
    expect(FakeXhr.all).toHaveLength(2);
    expect(screen.getByTestId('chat-attachment')).toHaveAttribute('data-status', 'uploading');

    const toggle = screen.getByTestId('chat-attachments-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(toggle);
    expect(screen.queryByTestId('chat-attachments')).toBeNull();
    expect(toggle).toHaveTextContent('Show attachments (1)');
    fireEvent.click(toggle);
    expect(screen.getByTestId('chat-attachments')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('file-tile')).toHaveAttribute('data-status', 'ready'));
  });

  it('says why an upload was refused when the server tells what to do about it', async () => {
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={jest.fn()} />);
    paste([new File(['abcd'], 'huge.png', { type: 'image/png' }), new File(['ef'], 'more.txt', { type: 'text/plain' })]);
    await FakeXhr.all[0].answer(422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.FILE.IMAGE_TOO_LARGE'] } });
    await FakeXhr.all[1].answer(422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.FILE.QUOTA_EXCEEDED'] } });
    const errors = screen.getAllByTestId('chat-attachment-error').map((e) => e.textContent);
    expect(errors).toEqual([expect.stringContaining('This image is too large to process'), expect.stringContaining('Your storage for files is full')]);
  });

  it('deletes an uploaded file on the server when it is taken out before sending', async () => {
    const fetchMock = jest.fn(async () => ({ status: 204, ok: true, headers: { get: () => null }, text: async () => '' }));
    Object.assign(globalThis, { fetch: fetchMock });
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={jest.fn()} />);
    paste([new File(['abcd'], 'image.png', { type: 'image/png' }), new File(['x'], 'notes.txt')]);
    await FakeXhr.all[0].answer(201, stored('F_img', 'image.png'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove image.png' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls[0]).toEqual(['/api/File/F_img', expect.objectContaining({ method: 'DELETE' })]);
    // One still uploading is only abandoned: the server never stored it.
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ignores a paste of plain text', () => {
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={jest.fn()} />);
    fireEvent.paste(screen.getByTestId('chat-composer-input'), { clipboardData: { items: [{ kind: 'string', getAsFile: () => null }], files: [] } });
    expect(screen.queryByTestId('chat-attachments')).toBeNull();
    expect(FakeXhr.all).toHaveLength(0);
  });
});

function List({ count }: { count: number }) {
  const stick = useRef(true);
  const items = Array.from({ length: count }, (_, i) => `row ${i}`);
  return <VirtualList items={items} itemKey={(s) => s} stickRef={stick} renderItem={(s) => <p>{s}</p>} listProps={{ 'data-testid': 'rows' }} />;
}

describe('the message language suggestion', () => {
  const type = (text: string) => fireEvent.change(screen.getByTestId('chat-composer-input'), { target: { value: text } });
  const suggestion = () => screen.findByTestId('chat-language-suggestion', {}, { timeout: 3000 });

  it('suggests the language a message is clearly written in; the message is sent in the language the writer confirmed', async () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    expect(screen.getByTestId('chat-language')).toHaveValue('pol');
    type('Hola, ¿el trabajo sigue disponible?');
    expect(await suggestion()).toHaveAttribute('data-language', 'spa');
    expect(screen.getByTestId('chat-language-suggestion')).toHaveTextContent(/hiszpański/i);
    // Suggested, not applied: until the writer takes it, the selected language stays.
    expect(screen.getByTestId('chat-language')).toHaveValue('pol');
    fireEvent.click(screen.getByTestId('chat-language-suggestion-accept'));
    expect(screen.getByTestId('chat-language')).toHaveValue('spa');
    expect(screen.queryByTestId('chat-language-suggestion')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-send'));
    expect(onSend).toHaveBeenCalledWith('Hola, ¿el trabajo sigue disponible?', [], 'spa');
  });

  it('stays quiet for text in the selected language, and for a few words; a dismissed suggestion is not made again', async () => {
    const onSend = jest.fn();
    renderWithMantine(<Composer groupCode="G_one" enabled onSend={onSend} />);
    const settle = () => act(() => new Promise((r) => setTimeout(r, 700)));
    for (const quiet of ['Dzień dobry, czy zlecenie jest aktualne?', 'ok, 10:30 👍', 'Hola amigo']) {
      type(quiet);
      await settle();
      expect([quiet, screen.queryByTestId('chat-language-suggestion')]).toEqual([quiet, null]);
    }
    type('Die Küche muss vor Freitag fertig sein');
    expect(await suggestion()).toHaveAttribute('data-language', 'ger');
    fireEvent.click(screen.getByTestId('chat-language-suggestion-dismiss'));
    type('Die Küche muss vor Freitag fertig sein, danke');
    // Give the detector the time it would take to answer: still nothing, and the writer's choice is sent.
    await settle();
    expect(screen.queryByTestId('chat-language-suggestion')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-send'));
    expect(onSend).toHaveBeenCalledWith('Die Küche muss vor Freitag fertig sein, danke', [], 'pol');
  });
});

describe('VirtualList', () => {
  it('renders a bounded number of the 10,000 rows, every row when they are few', () => {
    const { rerender } = renderWithMantine(<List count={10_000} />);
    const rows = screen.getByTestId('rows');
    expect(rows).toHaveAttribute('data-total', '10000');
    const rendered = rows.querySelectorAll('[role="article"]');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(60);
    // Stuck to the bottom: the newest rows are the ones rendered.
    expect(rendered[rendered.length - 1]).toHaveAttribute('aria-posinset', '10000');
    expect(rendered[0]).toHaveAttribute('aria-setsize', '10000');
    rerender(<List count={5} />);
    expect(screen.getByTestId('rows').querySelectorAll('[role="article"]')).toHaveLength(5);
  });
});
