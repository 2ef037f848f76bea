import { ArgumentMetadata, HttpStatus, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, ErrorKey } from './errors';
import { cacheValidationRules } from './validation-rules-cache';

cacheValidationRules();

function ruleKey(path: string, constraint: string): string {
  const field = path.replace(/\.(\d+)\./g, '.').replace(/\.(\d+)$/, '');
  const toKey = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return `VALIDATION.${toKey(field)}.${toKey(constraint === 'whitelistValidation' ? 'unknownField' : constraint)}`;
}

/** Type checks: when one fails, the field's other rules (length, pattern...) are noise about the same mistake. */
const TYPE_CONSTRAINTS = ['isString', 'isNumber', 'isInt', 'isBoolean', 'isArray', 'isObject'];

/** Flattens nested class-validator errors into translation keys, one per broken rule (only the type rule for a wrong type). */
export function brokenRules(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const property = e.property ?? 'body';
    const path = parent ? `${parent}.${property}` : property;
    const constraints = Object.keys(e.constraints ?? {});
    const wrongType = constraints.filter((c) => TYPE_CONSTRAINTS.includes(c));
    const own = (wrongType.length ? wrongType : constraints).map((c) => ruleKey(path, c));
    return [...own, ...brokenRules(e.children ?? [], path)];
  });
}

/** Deeper JSON than this is refused before class-transformer walks it. */
export const MAX_INPUT_DEPTH = 32;

const inputRule = (type: string, rule: string) =>
  new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.Validation, { brokenRules: [`VALIDATION.${type.toUpperCase()}.${rule}`] });

type InputProblem = 'TOO_DEEP' | 'NUL_CHARACTER' | 'ILL_FORMED_STRING' | 'FORBIDDEN_KEY';

/**
 * A lone UTF-16 surrogate ("\ud800", legal in JSON) is no text: validators that encode it throw
 * URIError, Postgres would store U+FFFD or refuse it. Refused once here for every input.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const stringProblem = (text: string): InputProblem | undefined =>
  text.includes('\u0000') ? 'NUL_CHARACTER' : LONE_SURROGATE.test(text) ? 'ILL_FORMED_STRING' : undefined;

const keyProblem = (key: string): InputProblem | undefined => (key === '__proto__' ? 'FORBIDDEN_KEY' : stringProblem(key));

/**
 * Postgres refuses NUL in text (a 500 if it got that far), and nothing we store needs it. JSON.parse
 * makes "__proto__" an own key that class-transformer skips, so the whitelist would never see it.
 */
function inputProblem(value: unknown, depth = 0): InputProblem | undefined {
  if (typeof value === 'string') return stringProblem(value);
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_INPUT_DEPTH) return 'TOO_DEEP';
  for (const [key, item] of Object.entries(value)) {
    const problem = keyProblem(key) ?? inputProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Strict DTO validation: unknown fields and wrong types are rejected, nothing is coerced. Before the
 * DTO rules: a DTO body must be a JSON object (not an array), and no input may nest deeper than
 * MAX_INPUT_DEPTH, carry a NUL character, a lone surrogate or a "__proto__" key.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom') return super.transform(value, metadata);
    const problem = inputProblem(value);
    if (problem) throw inputRule(metadata.type, problem);
    if (metadata.type === 'body' && isDtoClass(metadata.metatype) && value != null && (typeof value !== 'object' || Array.isArray(value))) {
      throw inputRule('body', 'NOT_AN_OBJECT');
    }
    return super.transform(value, metadata);
  }
}

const isDtoClass = (metatype: unknown): boolean => typeof metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metatype as never);

export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.Validation, { brokenRules: [...new Set(brokenRules(errors))] }),
  });
}

const payloadPipe = createValidationPipe();

/** Validates a payload that did not come through an HTTP body (socket events) with the same DTO rules. */
export async function validatePayload<T extends object>(metatype: new () => T, value: unknown): Promise<T> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.Validation, { brokenRules: ['VALIDATION.PAYLOAD.NOT_AN_OBJECT'] });
  }
  return (await payloadPipe.transform(value, { type: 'body', metatype })) as T;
}
