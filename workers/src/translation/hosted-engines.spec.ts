import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DeeplEngine } from './deepl.engine';
import { LibreTranslateEngine } from './libretranslate.engine';
import { TranslationFailure } from './translation-engine';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A small HTTP stand-in on a free loopback port that answers as the handler says. */
async function standIn(
  handler: Handler,
): Promise<{ url: string; requests: { path: string; body: string; headers: IncomingMessage['headers'] }[]; close: () => Promise<void> }> {
  const requests: { path: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body, headers: req.headers });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const signal = () => AbortSignal.timeout(5000);

describe('LibreTranslate adapter (against a stand-in speaking its documented format)', () => {
  let mode: 'ok' | 'html' | 'down' = 'ok';
  let lt: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    lt = await standIn((req, body, res) => {
      if (req.url === '/languages')
        return json(res, 200, [
          { code: 'es', name: 'Spanish', targets: ['en', 'pl', 'xx'] },
          { code: 'en', targets: ['es'] },
        ]);
      if (mode === 'html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      if (mode === 'down') return json(res, 503, { error: 'busy' });
      const { q, source, target } = JSON.parse(body) as { q: string[]; source: string; target: string };
      json(res, 200, { translatedText: q.map((t) => `[${source}>${target}] ${t}`) });
    });
  });
  afterAll(() => lt.close());

  it('discovers its pairs, maps the product codes and sends the key', async () => {
    const engine = new LibreTranslateEngine({ url: lt.url, apiKey: 'k-1' });
    await engine.start();
    expect(engine.pairs()).toEqual([
      { from: 'spa', to: 'eng' },
      { from: 'spa', to: 'pol' },
      { from: 'eng', to: 'spa' },
    ]);
    expect(engine.supports('spa', 'ger')).toBe(false);
    mode = 'ok';
    expect(await engine.translate(['Hola', 'mundo'], 'spa', 'pol', signal())).toEqual(['[es>pl] Hola', '[es>pl] mundo']);
    expect(JSON.parse(lt.requests[lt.requests.length - 1].body)).toEqual({ q: ['Hola', 'mundo'], source: 'es', target: 'pl', format: 'text', api_key: 'k-1' });
  });

  it('refuses an answer that is HTML, and lets a 5xx be retried', async () => {
    const engine = new LibreTranslateEngine({ url: lt.url });
    await engine.start();
    mode = 'html';
    await expect(engine.translate(['Hola'], 'spa', 'eng', signal())).rejects.toBeInstanceOf(TranslationFailure);
    mode = 'down';
    const err = await engine.translate(['Hola'], 'spa', 'eng', signal()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(TranslationFailure);
    await expect(engine.translate(['Hola'], 'spa', 'ger', signal())).rejects.toBeInstanceOf(TranslationFailure);
  });

  it('serves nothing without a URL or when the service does not answer', async () => {
    const none = new LibreTranslateEngine({});
    await none.start();
    expect(none.pairs()).toEqual([]);
    const gone = new LibreTranslateEngine({ url: 'http://127.0.0.1:9' });
    await gone.start();
    expect(gone.pairs()).toEqual([]);
  });
});

describe('DeepL adapter (against a stand-in speaking its documented format)', () => {
  let deepl: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    deepl = await standIn((req, body, res) => {
      if (req.headers.authorization !== 'DeepL-Auth-Key secret:fx') return json(res, 403, { message: 'Forbidden' });
      if (req.url === '/v2/languages?type=source') return json(res, 200, [{ language: 'EN' }, { language: 'ES' }, { language: 'JA' }]);
      if (req.url === '/v2/languages?type=target') return json(res, 200, [{ language: 'EN-GB' }, { language: 'EN-US' }, { language: 'ES' }]);
      const { text, source_lang, target_lang } = JSON.parse(body) as { text: string[]; source_lang: string; target_lang: string };
      if (text[0] === 'garbage') return json(res, 200, { translations: [] });
      json(res, 200, { translations: text.map((t) => ({ detected_source_language: source_lang, text: `${target_lang}:${t}` })) });
    });
  });
  afterAll(() => deepl.close());

  it('discovers its pairs with the key in the Authorization header and translates with regional English as target', async () => {
    const engine = new DeeplEngine({ apiKey: 'secret:fx', url: deepl.url });
    await engine.start();
    expect(engine.pairs()).toEqual([
      { from: 'eng', to: 'spa' },
      { from: 'spa', to: 'eng' },
    ]);
    expect(await engine.translate(['Hola'], 'spa', 'eng', signal())).toEqual(['EN-US:Hola']);
    await expect(engine.translate(['garbage'], 'spa', 'eng', signal())).rejects.toBeInstanceOf(TranslationFailure);
  });

  it('serves nothing with a wrong key or none', async () => {
    const wrong = new DeeplEngine({ apiKey: 'nope', url: deepl.url });
    await wrong.start();
    expect(wrong.pairs()).toEqual([]);
    const none = new DeeplEngine({});
    await none.start();
    expect(none.pairs()).toEqual([]);
  });
});
