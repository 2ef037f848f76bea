import { ValidateBy } from 'class-validator';

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The job translation form's rules, named as the form names them (VALIDATION.<FIELD>.REQUIRED /
 * MIN_LENGTH / IS_STRING / IS_IN): a missing field breaks only `required`; a wrong type only `isString`.
 */
export const Required = () => ValidateBy({ name: 'required', validator: { validate: (value) => !isBlank(value) } });

export const TextIfPresent = () =>
  ValidateBy({ name: 'isString', validator: { validate: (value) => value === undefined || value === null || typeof value === 'string' } });

export const MinLengthIfPresent = (min: number) =>
  ValidateBy({
    name: 'minLength',
    constraints: [min],
    validator: { validate: (value) => typeof value !== 'string' || isBlank(value) || value.trim().length >= min },
  });

export const MaxLengthIfPresent = (max: number) =>
  ValidateBy({ name: 'maxLength', constraints: [max], validator: { validate: (value) => typeof value !== 'string' || value.length <= max } });

export const InIfPresent = (allowed: readonly string[]) =>
  ValidateBy({
    name: 'isIn',
    constraints: [allowed],
    validator: { validate: (value) => typeof value !== 'string' || isBlank(value) || allowed.includes(value) },
  });
