import type { UseFormReturnType } from '@mantine/form';
import { visibleError } from './form-messages';

/** Mantine input props whose error shows only when the field is invalid and dirty or touched. */
export function fieldProps<Values extends object>(form: UseFormReturnType<Values>, path: keyof Values & string, options?: { type?: 'input' | 'checkbox' }) {
  const props = form.getInputProps(path, options);
  return {
    ...props,
    error: visibleError({ error: form.errors[path], dirty: form.isDirty(path), touched: form.isTouched(path) }),
  };
}

/** On a submit attempt every field counts as touched, so every invalid field shows its message. */
export function touchAll<Values extends object>(form: UseFormReturnType<Values>): void {
  form.setTouched(Object.fromEntries(Object.keys(form.getValues()).map((key) => [key, true])));
}
