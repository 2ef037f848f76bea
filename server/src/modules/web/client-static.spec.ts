import { cacheControlFor, isHistoryRequest } from './client-static';

const req = (path: string, accept = 'text/html,application/xhtml+xml', method = 'GET') => ({ method, path, headers: { accept } });

describe('client history fallback', () => {
  it('answers page requests of the client app', () => {
    expect(isHistoryRequest(req('/'))).toBe(true);
    expect(isHistoryRequest(req('/jobs/123/offers/abc'))).toBe(true);
    expect(isHistoryRequest(req('/apis'))).toBe(true);
    expect(isHistoryRequest(req('/assets/other.json'))).toBe(true);
  });

  it('never shadows the API, the socket, instance styles or the config file', () => {
    for (const path of ['/api', '/api/me', '/API/x', '/socket.io/', '/instance/styles.css', '/assets/config.json']) {
      expect(isHistoryRequest(req(path))).toBe(false);
    }
  });

  it('only answers GETs that accept HTML', () => {
    expect(isHistoryRequest(req('/jobs', 'application/json'))).toBe(false);
    expect(isHistoryRequest(req('/jobs', ''))).toBe(false);
    expect(isHistoryRequest(req('/jobs', 'text/html', 'POST'))).toBe(false);
  });

  it('answers a request for anything (curl) at a page path, but not at a missing file', () => {
    expect(isHistoryRequest(req('/', '*/*'))).toBe(true);
    expect(isHistoryRequest(req('/messages/abc', '*/*'))).toBe(true);
    expect(isHistoryRequest(req('/static/missing.js', '*/*'))).toBe(false);
    expect(isHistoryRequest(req('/api/me', '*/*'))).toBe(false);
  });
});

describe('client cache headers', () => {
  it('caches hashed assets for good and revalidates the rest', () => {
    expect(cacheControlFor('static/index-AbC123xy.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('index.html')).toBe('no-cache');
    expect(cacheControlFor('assets/logo.svg')).toBe('no-cache');
  });
});
