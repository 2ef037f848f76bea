/** Just enough JSON Schema to describe the socket payloads, typed against the TypeScript contract they describe. */
export type Schema = Record<string, unknown>;

export const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const arrayOf = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const mapOf = (values: Schema, description?: string): Schema => ({
  type: 'object',
  additionalProperties: values,
  ...(description ? { description } : {}),
});

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * An object schema with exactly the properties of T: one missing or one too many is a compile error, so the
 * document cannot drift from the TypeScript contract; the optional ones (T's `?` properties) are left out of
 * `required`, and a payload with a property T lacks fails validation (additionalProperties: false).
 */
export function objectOf<T>(properties: { [K in keyof Required<T>]: Schema }, optional: readonly OptionalKeys<T>[] = [], description?: string): Schema {
  const skip = new Set<PropertyKey>(optional);
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: Object.keys(properties).filter((key) => !skip.has(key)),
    properties,
    additionalProperties: false,
  };
}
