import type { FormErrors } from '@mantine/form';
import { useCallback, useRef } from 'react';

type Validator<T> = (values: T) => FormErrors;

/**
 * A form validator that arrives after the page: the protocol's zod schemas are ~40 kB of gzip, too
 * much for a page's first paint. It loads when the form is first focused (`prepare`, for the form's
 * onFocus), long before anyone has finished typing; `ready()` lets a submit that beats it wait for it
 * instead of skipping the checks.
 */
export function useLazyValidation<T>(load: () => Promise<Validator<T>>) {
  const validator = useRef<Validator<T> | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const loadRef = useRef(load);

  // Never fails: should the checks not load (offline), the submit goes on and the server's own
  // checks answer; the next call tries to load them again.
  const ready = useCallback(
    () =>
      (loading.current ??= loadRef.current().then(
        (v) => {
          validator.current = v;
        },
        () => {
          loading.current = null;
        },
      )),
    [],
  );
  const prepare = useCallback(() => void ready(), [ready]);
  const validate = useCallback((values: T): FormErrors => validator.current?.(values) ?? {}, []);
  return { validate, ready, prepare };
}
