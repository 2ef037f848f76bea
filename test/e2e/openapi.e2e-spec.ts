import { METHODS } from 'node:http';
import { createTestApp, TestApp } from '../utils/create-app';

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}
interface OpenApiDocument {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

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

  it('describes the error envelope', () => {
    expect(doc.info.description).toContain('{ code, message, data? }');
    expect(doc.info.description).toContain('brokenRules');
  });
});
