import { BadRequestException, ConflictException, Controller, Get, Logger, Post } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../../server/src/app.module';
import { configureApp } from '../../server/src/app.setup';
import { Public } from '../../server/src/common/decorators/public.decorator';
import { conflict, tooManyRequests } from '../../server/src/common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { loadConfig } from '#shared/config/load-config';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { testEnv } from '../utils/test-env';

const SECRET = 'db password is hunter2';

/** Test-only routes that fail on purpose; registered in this spec's module only, never in app code. */
@Public()
@Controller('test-only')
class FailingController {
  @Get('crash')
  crash(): never {
    throw new Error(SECRET);
  }

  @Get('crash-async')
  async crashAsync(): Promise<never> {
    await new Promise((resolve) => setImmediate(resolve));
    throw new TypeError(SECRET);
  }

  @Get('crash-string')
  crashString(): never {
    throw SECRET;
  }

  @Get('conflict')
  conflict(): never {
    throw conflict();
  }

  @Get('nest-conflict')
  nestConflict(): never {
    throw new ConflictException(SECRET);
  }

  @Get('nest-bad-request')
  nestBadRequest(): never {
    throw new BadRequestException({ message: SECRET, stack: 'at x' });
  }

  @Post('rate-limited')
  rateLimited(): never {
    throw tooManyRequests(7);
  }
}

const envelope = (code: number, message: string) => ({ code, message });

describe('the error envelope', () => {
  let app: NestExpressApplication;
  let admin: TestUser;
  let user: TestUser;
  const http = () => request(app.getHttpServer());
  const json = (path: string, body: string, token = admin.token) =>
    http().post(path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(body);

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule], controllers: [FailingController] })
      .overrideProvider(APP_CONFIG)
      .useValue(loadConfig(testEnv({ BODY_LIMIT: '2kb' })))
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
    configureApp(app);
    await app.init();
    const instance = await createInstance({ app, http, close: () => app.close() });
    admin = await createUser({ app, http, close: () => app.close() }, { instanceId: instance.id, role: Role.InstanceAdmin });
    user = await createUser({ app, http, close: () => app.close() }, { instanceId: instance.id });
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  describe('routing', () => {
    it('answers an unknown route with 404, under /api and outside it', async () => {
      for (const path of ['/api/nope', '/api', '/nope', '/api/Instance/x/y/z']) {
        const res = await http().get(path).expect(404);
        expect(res.body).toEqual(envelope(404, 'SHARED.ERROR.NOT_FOUND'));
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('answers a wrong method on a known route with 405 and Allow', async () => {
      const res = await http().delete('/api/Instance').expect(405);
      expect(res.body).toEqual(envelope(405, 'SHARED.ERROR.METHOD_NOT_ALLOWED'));
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
      expect((await http().put('/api/health').expect(405)).headers.allow).toBe('GET, HEAD, OPTIONS');
    });

    it('answers HEAD like GET without a body, and OPTIONS with Allow on known paths only', async () => {
      const head = await http().head('/api/health').expect(200);
      expect(head.text).toBeFalsy();
      await http().head('/api/nope').expect(404);
      const options = await http().options('/api/Instance/Current').expect(204);
      expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(options.headers['access-control-allow-origin']).toBeUndefined();
      expect((await http().options('/api/nope').expect(404)).body).toEqual(envelope(404, 'SHARED.ERROR.NOT_FOUND'));
    });

    it('answers invalid percent-encoding in a path with 400', async () => {
      const res = await http().get('/api/Instance/%E0%A4%A').set('Authorization', `Bearer ${admin.token}`).expect(400);
      expect(res.body).toEqual(envelope(400, 'SHARED.ERROR.BAD_REQUEST'));
    });
  });

  describe('status codes', () => {
    it('401 without or with a bad token', async () => {
      for (const auth of [undefined, 'Bearer nonsense', 'Basic abc', `Bearer ${admin.token}x`]) {
        const req = http().get('/api/Instance/Owned');
        if (auth) req.set('Authorization', auth);
        expect((await req.expect(401)).body).toEqual(envelope(401, 'SHARED.ERROR.UNAUTHORIZED'));
      }
    });

    it('403 for a role that may not', async () => {
      expect((await json('/api/Instance', '{"name":"x"}', user.token).expect(403)).body).toEqual(envelope(403, 'SHARED.ERROR.FORBIDDEN'));
    });

    it('404 for what the caller may not see', async () => {
      const other = await createInstance({ app, http, close: async () => undefined });
      const res = await http().get(`/api/Instance/${other.code}`).set('Authorization', `Bearer ${admin.token}`).expect(404);
      expect(res.body).toEqual(envelope(404, 'SHARED.ERROR.NOT_FOUND'));
    });

    it("409, from AppError and from Nest's own exceptions, with no message of ours leaking", async () => {
      expect((await http().get('/api/test-only/conflict').expect(409)).body).toEqual(envelope(409, 'SHARED.ERROR.CONFLICT'));
      expect((await http().get('/api/test-only/nest-conflict').expect(409)).body).toEqual(envelope(409, 'SHARED.ERROR.CONFLICT'));
      expect((await http().get('/api/test-only/nest-bad-request').expect(400)).body).toEqual(envelope(400, 'SHARED.ERROR.BAD_REQUEST'));
    });

    it('413 for a JSON body over BODY_LIMIT', async () => {
      const res = await json('/api/Instance', JSON.stringify({ customCss: 'x'.repeat(3000) })).expect(413);
      expect(res.body).toEqual(envelope(413, 'SHARED.ERROR.PAYLOAD_TOO_LARGE'));
    });

    it('415 for an /api body that is not JSON', async () => {
      for (const type of ['text/plain', 'application/xml', 'text/html']) {
        const res = await http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).set('Content-Type', type).send('name=x').expect(415);
        expect(res.body).toEqual(envelope(415, 'SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE'));
      }
      const untyped = await http()
        .post('/api/Instance')
        .set('Authorization', `Bearer ${admin.token}`)
        .serialize((x) => x)
        .send('{"name":"x"}')
        .unset('Content-Type');
      expect(untyped.status).toBe(415);
    });

    it('422 with brokenRules', async () => {
      const res = await json('/api/Instance', '{"color":"#abc123"}').expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.COLOR.IS_HEX_COLOR'] } });
    });

    it('429 with Retry-After', async () => {
      const res = await http().post('/api/test-only/rate-limited').expect(429);
      expect(res.body).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: 7 } });
      expect(res.headers['retry-after']).toBe('7');
    });

    it('500 without a stack or the message, logged with the request id', async () => {
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      for (const path of ['crash', 'crash-async', 'crash-string']) {
        const res = await http().get(`/api/test-only/${path}`).set('X-Request-Id', `req-${path}`).expect(500);
        expect(res.body).toEqual(envelope(500, 'SHARED.ERROR.INTERNAL'));
        expect(res.text).not.toContain('hunter2');
        expect(res.text).not.toMatch(/\bat \S+ \(|Error/);
        expect(res.headers['x-request-id']).toBe(`req-${path}`);
        expect(logged).toHaveBeenLastCalledWith(expect.objectContaining({ requestId: `req-${path}`, path: `/api/test-only/${path}` }), 'unhandled error');
      }
      logged.mockClear();
      await http().get('/api/nope').expect(404);
      expect(logged).not.toHaveBeenCalled();
    });
  });

  describe('bad bodies', () => {
    it.each([
      ['malformed JSON', '{"name": "x",}'],
      ['truncated JSON', '{"name": "x"'],
      ['a JSON string literal', '"just a string"'],
      ['a JSON number literal', '42'],
      ['a null body', 'null'],
      ['a JSON true', 'true'],
    ])('400 for %s', async (_, body) => {
      const res = await json('/api/Instance', body).expect(400);
      expect(res.body).toEqual(envelope(400, 'SHARED.ERROR.MALFORMED_JSON'));
    });

    it.each([
      ['a number where a string is expected', '{"name": 5}', 'VALIDATION.NAME.IS_STRING'],
      ['null where a string is expected', '{"name": null}', 'VALIDATION.NAME.IS_STRING'],
      ['an array where an object is expected', '[{"name": "x"}]', 'VALIDATION.BODY.NOT_AN_OBJECT'],
      ['an empty array', '[]', 'VALIDATION.BODY.NOT_AN_OBJECT'],
      ['an unknown field', '{"name": "x", "isAdmin": true}', 'VALIDATION.IS_ADMIN.UNKNOWN_FIELD'],
      ['a prototype-polluting field', '{"name": "x", "__proto__": {"role": 100}}', 'VALIDATION.BODY.FORBIDDEN_KEY'],
      ['an overlong string', JSON.stringify({ name: 'x'.repeat(101) }), 'VALIDATION.NAME.MAX_LENGTH'],
      ['deeply nested JSON', `{"name": ${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`, 'VALIDATION.BODY.TOO_DEEP'],
      ['a NUL character', '{"name": "a\\u0000b"}', 'VALIDATION.BODY.NUL_CHARACTER'],
      ['a NUL character in a key', '{"a\\u0000": "x"}', 'VALIDATION.BODY.NUL_CHARACTER'],
    ])('422 for %s', async (_, body, rule) => {
      const res = await json('/api/Instance', body).expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [rule] } });
    });

    it('4xx, never 500, for nesting deeper than the JSON parser copes with', async () => {
      const res = await json('/api/Instance', `${'['.repeat(1000)}${']'.repeat(1000)}`);
      expect([400, 422]).toContain(res.status);
      expect(res.body.code).toBe(res.status);
    });

    it('422 for a bad query string and NUL in a query', async () => {
      const res = await http().get('/api/Instance?page=%00').set('Authorization', `Bearer ${admin.token}`).expect(422);
      expect(res.body.data.brokenRules).toEqual(['VALIDATION.QUERY.NUL_CHARACTER']);
    });

    it('changed nothing on any of these', async () => {
      const res = await http().get('/api/Instance?pageSize=1').set('Authorization', `Bearer ${admin.token}`).expect(200);
      expect(res.body.items[0]).toMatchObject({ color: '228be6', accent: '7950f2', customCss: '', logoUrl: null });
      expect(res.body.items[0].name).toMatch(/^Instance /);
    });
  });

  describe('headers', () => {
    it('sends basic security headers and no X-Powered-By, on success and on errors', async () => {
      for (const res of [await http().get('/api/health'), await http().get('/api/nope'), await json('/api/Instance', '{bad')]) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('echoes a sane X-Request-Id and makes one up otherwise, even for requests the body parser refuses', async () => {
      expect((await http().get('/api/health').set('X-Request-Id', 'abc-123.x_y')).headers['x-request-id']).toBe('abc-123.x_y');
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      const made = [
        await http().get('/api/health'),
        await http().get('/api/health').set('X-Request-Id', 'has spaces'),
        await http().get('/api/health').set('X-Request-Id', 'x'.repeat(65)),
        await http().get('/api/nope'),
        await json('/api/Instance', '{bad'),
        await json('/api/Instance', JSON.stringify({ customCss: 'x'.repeat(3000) })),
      ].map((res) => res.headers['x-request-id']);
      for (const id of made) expect(id).toMatch(uuid);
      expect(new Set(made).size).toBe(made.length);
      expect((await json('/api/Instance', '{bad').set('X-Request-Id', 'parse-fail')).headers['x-request-id']).toBe('parse-fail');
    });
  });
});
