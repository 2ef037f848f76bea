import { readFileSync, writeFileSync } from 'node:fs';
import { METHODS } from 'node:http';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../utils/create-app';

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}
interface OpenApiResponse {
  content?: Record<string, { schema?: { $ref?: string } }>;
  headers?: Record<string, unknown>;
}
interface OpenApiOperation {
  operationId: string;
  security?: object[];
  requestBody?: object;
  parameters?: { in: string; name: string }[];
  responses?: Record<string, OpenApiResponse>;
}
interface OpenApiDocument {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/** The document `npm test` lints (redocly lint); UPDATE_API_DOCS=1 rewrites it from the served one. */
const COMMITTED = join(__dirname, '../../docs/openapi.json');

/** Every method + path the Express router serves, as OpenAPI spells it ('/api/x/:id' → '/api/x/{id}'). */
function registeredRoutes(t: TestApp): string[] {
  const stack: RouteLayer[] = (t.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } }).router.stack;
  const routes = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
    if (methods.length >= METHODS.length) continue; // Nest's middleware mounts, not endpoints
    for (const path of [layer.route.path].flat()) {
      if (/^\/api\/docs/.test(path)) continue; // the documentation itself
      for (const method of methods) routes.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return [...routes].sort();
}

describe('OpenAPI', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http().get('/api/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('serves the UI at /api/docs', async () => {
    const res = await t.http().get('/api/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger');
  });

  it('documents every route the app registers, and nothing it does not', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
      .sort();
    const registered = registeredRoutes(t);
    expect(registered.length).toBeGreaterThan(15);
    expect(registered).toEqual(
      expect.arrayContaining(['get /api/Instance/{id}', 'post /api/Instance', 'get /instance/styles.css', 'get /assets/config.json', 'get /api/timezone']),
    );
    expect(documented).toEqual(registered);
  });

  it('gives every operation a documented success response', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const success = Object.keys(op.responses ?? {}).filter((status) => /^2\d\d$/.test(status));
        expect({ route: `${method} ${path}`, success: success.length > 0 }).toEqual({ route: `${method} ${path}`, success: true });
      }
    }
  });

  it('carries the DTO schemas with their properties, and no internal ids', () => {
    const expected: Record<string, string[]> = {
      CurrentInstanceDto: ['code', 'name', 'color', 'accent', 'logoUrl'],
      InstanceDto: ['code', 'name', 'color', 'accent', 'logoUrl', 'customCss', 'hosts', 'isDefault', 'updatedAt'],
      InstancePageDto: ['items', 'page', 'pageSize', 'total'],
      UpdateInstanceDto: ['code', 'name', 'color', 'accent', 'logoUrl', 'customCss'],
      TimezoneDto: ['name', 'abbr', 'offset'],
      ClientConfigDto: ['languages', 'currencies', 'defaultCurrency'],
      LanguageConfigDto: ['code', 'locale', 'suggestedCurrencies'],
      CurrencyDto: ['code', 'name', 'decimals'],
    };
    for (const [name, properties] of Object.entries(expected)) {
      expect({ name, properties: Object.keys(doc.components.schemas[name]?.properties ?? {}).sort() }).toEqual({ name, properties: [...properties].sort() });
    }
    for (const name of Object.keys(expected)) expect(doc.components.schemas[name].properties?.id).toBeUndefined();
  });

  it('is the committed docs/openapi.json that npm test lints (UPDATE_API_DOCS=1 rewrites it)', () => {
    const served = `${JSON.stringify(doc, null, 2)}\n`;
    if (process.env.UPDATE_API_DOCS === '1') writeFileSync(COMMITTED, served);
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(doc);
  });

  it('references the one error envelope from every error response, with every status the operation can answer', () => {
    expect(Object.keys(doc.components.schemas.ErrorEnvelope.properties ?? {})).toEqual(['code', 'message', 'data']);
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));
    const probes = new Set(['/api/health', '/api/health/live', '/api/health/ready']);
    for (const { method, path, op } of operations) {
      const route = `${method} ${path}`;
      const responses = op.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        expect({ route, status, requestId: Boolean(response.headers?.['X-Request-Id']) }).toEqual({ route, status, requestId: true });
        if (!/^[45]/.test(status) || probes.has(path)) continue;
        expect({ route, status, schema: response.content?.['application/json']?.schema?.$ref }).toEqual({
          route,
          status,
          schema: '#/components/schemas/ErrorEnvelope',
        });
        if (status === '429' || status === '503')
          expect({ route, status, retryAfter: Boolean(response.headers?.['Retry-After']) }).toEqual({ route, status, retryAfter: true });
      }
      if (probes.has(path)) continue;
      const expected = ['500', '503'];
      if (op.security?.length) expected.push('401');
      if (op.requestBody) expected.push('413', '415', '422');
      if (op.parameters?.some((p) => p.in === 'query')) expected.push('422');
      if (path.includes('{')) expected.push('404');
      expect({ route, missing: expected.filter((s) => !responses[s]) }).toEqual({ route, missing: [] });
    }
    const protectedOps = operations.filter(({ op }) => op.security?.length);
    expect(protectedOps.length).toBeGreaterThan(60);
    for (const { path, op } of operations.filter(({ op }) => !op.security?.length)) expect({ path, security: op.security }).toEqual({ path, security: [] });
    // Rate-limited operations declare 429 with Retry-After.
    expect(doc.paths['/api/user/login'].post.responses?.['429']).toBeDefined();
    expect(doc.paths['/api/message/groups/{id}'].post.responses?.['429']).toBeDefined();
  });

  it('declares the refresh cookie where it is set and read', () => {
    const refresh = doc.paths['/api/user/refresh-token'].post;
    expect(refresh.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'cookie', name: 'parley_rt' })]));
    for (const path of ['/api/user/login', '/api/user/refresh-token']) {
      expect(doc.paths[path].post.responses?.['200'].headers?.['Set-Cookie']).toBeDefined();
    }
  });

  it('describes the error envelope', () => {
    expect(doc.info.description).toContain('{ code, message, data? }');
    expect(doc.info.description).toContain('brokenRules');
  });
});
