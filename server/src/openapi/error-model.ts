import type { OpenAPIObject } from '@nestjs/swagger';
import { REFRESH_COOKIE } from '../modules/auth/refresh-cookie';

type Operation = OpenAPIObject['paths'][string]['get'] & object;
type Response = { description: string; content?: Record<string, unknown>; headers?: Record<string, unknown> };

export const ERROR_ENVELOPE = 'ErrorEnvelope';
const envelopeRef = { $ref: `#/components/schemas/${ERROR_ENVELOPE}` };
const requestIdHeader = { $ref: '#/components/headers/X-Request-Id' };
const retryAfterHeader = { $ref: '#/components/headers/Retry-After' };

/** What each error status means when the operation does not say more. */
const DEFAULT_DESCRIPTION: Record<string, string> = {
  '400': 'SHARED.ERROR.MALFORMED_JSON: the body is not JSON (or a bare string, number or null)',
  '401': 'SHARED.ERROR.UNAUTHORIZED: no, bad or expired access token (SHARED.USER.SESSION_EXPIRED)',
  '403': 'SHARED.ERROR.FORBIDDEN: the role does not allow it; SHARED.ERROR.CROSS_ORIGIN: a state-changing call from another site',
  '404': 'SHARED.ERROR.NOT_FOUND: no such object, or one the caller may not see',
  '413': 'SHARED.ERROR.PAYLOAD_TOO_LARGE: the body is over BODY_LIMIT',
  '415': 'SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE: the body is not JSON',
  '422': 'SHARED.ERROR.VALIDATION: data.brokenRules names each broken rule (VALIDATION.<FIELD>.<RULE>)',
  '429': 'SHARED.ERROR.TOO_MANY_REQUESTS: over a rate limit; Retry-After says when to try again',
  '500': 'SHARED.ERROR.INTERNAL: an unexpected failure (never a stack or message)',
  '503': 'SHARED.ERROR.UNAVAILABLE: a dependency (PostgreSQL, Redis) is unavailable; Retry-After says when to try again',
};

/** Operations that take a rate limit inside the service rather than by a guard that declares it. */
const RATE_LIMITED_IN_SERVICE = new Set(['UsersController_search', 'ChatGroupsController_addParticipants', 'AuthController_refresh']);
/** Operations answering with the refresh cookie (set on success), and those reading it. */
const SETS_REFRESH_COOKIE = new Set(['AuthController_register', 'AuthController_login', 'AuthController_refresh', 'AuthProvidersController_login']);
const READS_REFRESH_COOKIE = new Set(['AuthController_refresh', 'AuthController_logout']);
/** Probes answer their own body, not the envelope, and touch no dependency but the ones they report. */
const OWN_BODIES = new Set(['HealthController_health', 'HealthController_live', 'HealthController_ready']);

/**
 * Adds the error model to the generated document: the one envelope schema, referenced by every error response;
 * every status an operation can answer (401 when protected, 400/413/415/422 when it takes a JSON body, 422 for
 * query parameters, 404 for path parameters, 403 for state-changing calls, 429 where rate limited, 500 and 503
 * everywhere); `X-Request-Id` on every response, `Retry-After` on 429 and 503, and the refresh cookie.
 */
export function addErrorModel(document: OpenAPIObject, isPublic: (operationId: string) => boolean): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_ENVELOPE] = {
    type: 'object',
    description: 'Every failure: code is the HTTP status, message a translation key (SHARED.ERROR.*).',
    required: ['code', 'message'],
    properties: {
      code: { type: 'integer', example: 422 },
      message: { type: 'string', example: 'SHARED.ERROR.VALIDATION' },
      data: {
        type: 'object',
        additionalProperties: true,
        properties: {
          brokenRules: {
            type: 'array',
            items: { type: 'string' },
            description: 'on a 422: one translation key per broken rule',
            example: ['VALIDATION.MESSAGE.EMPTY'],
          },
          retryAfter: { type: 'integer', description: 'on a 429: seconds to wait' },
          retryAfterMs: { type: 'integer', description: 'on a 503 SHARED.ERROR.OVERLOADED: milliseconds to wait before sending the same again' },
        },
      },
    },
  };
  document.components.headers = {
    ...document.components.headers,
    'X-Request-Id': { description: 'The request id sent (if sane), else a fresh UUID; the logs carry it too', schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
    'Set-Cookie': {
      description: `${REFRESH_COOKIE}: the refresh token (httpOnly, SameSite=Strict, Path=/api/user, Secure in production); cleared on failure`,
      schema: { type: 'string' },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation) describeOperation(operation, method, path, isPublic(operation.operationId ?? ''));
    }
  }
  return document;
}

function describeOperation(operation: Operation, method: string, path: string, open: boolean): void {
  const id = operation.operationId ?? '';
  const responses = operation.responses as Record<string, Response>;
  if (open) operation.security = [];
  else operation.security ??= [{ bearer: [] }];
  const statuses = new Set(Object.keys(responses).filter((status) => /^[45]\d\d$/.test(status)));
  if (!OWN_BODIES.has(id)) {
    statuses.add('500');
    statuses.add('503');
    if (!open) statuses.add('401');
    const jsonBody = Boolean(operation.requestBody && 'content' in operation.requestBody && operation.requestBody.content['application/json']);
    if (operation.requestBody) ['413', '415', '422'].forEach((s) => statuses.add(s));
    if (jsonBody) statuses.add('400');
    if (operation.parameters?.some((p) => 'in' in p && p.in === 'query')) statuses.add('422');
    if (/\{/.test(path)) statuses.add('404');
    if (method !== 'get') statuses.add('403');
    if (RATE_LIMITED_IN_SERVICE.has(id)) statuses.add('429');
  }
  for (const status of statuses) {
    const declared = responses[status];
    // Only the probes' 503 has a body of its own (its checks); every other error is the envelope.
    const ownBody = OWN_BODIES.has(id) && declared?.content;
    responses[status] = {
      description: declared?.description || DEFAULT_DESCRIPTION[status] || 'An error',
      content: ownBody ? declared.content : { 'application/json': { schema: envelopeRef } },
      headers: { 'X-Request-Id': requestIdHeader, ...(status === '429' || status === '503' ? { 'Retry-After': retryAfterHeader } : {}) },
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[23]/.test(status)) continue;
    response.headers = { ...response.headers, 'X-Request-Id': requestIdHeader };
    if (SETS_REFRESH_COOKIE.has(id)) response.headers['Set-Cookie'] = { $ref: '#/components/headers/Set-Cookie' };
  }
  if (READS_REFRESH_COOKIE.has(id)) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        name: REFRESH_COOKIE,
        in: 'cookie',
        required: id === 'AuthController_refresh',
        description: 'The refresh token set by login',
        schema: { type: 'string' },
      },
    ];
  }
}
