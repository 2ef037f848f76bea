import { HttpStatus, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, ErrorKey } from './errors';

function ruleKey(path: string, constraint: string): string {
  const field = path.replace(/\.(\d+)\./g, '.').replace(/\.(\d+)$/, '');
  const toKey = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return `VALIDATION.${toKey(field)}.${toKey(constraint === 'whitelistValidation' ? 'unknownField' : constraint)}`;
}

/** Flattens nested class-validator errors into translation keys, one per broken rule. */
export function brokenRules(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const property = e.property ?? 'body';
    const path = parent ? `${parent}.${property}` : property;
    const own = Object.keys(e.constraints ?? {}).map((c) => ruleKey(path, c));
    return [...own, ...brokenRules(e.children ?? [], path)];
  });
}

/** Strict DTO validation: unknown fields and wrong types are rejected, nothing is coerced. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.Validation, { brokenRules: [...new Set(brokenRules(errors))] }),
  });
}
