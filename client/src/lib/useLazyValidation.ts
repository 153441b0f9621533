import type { FormErrors } from '@mantine/form';
import { useCallback, useEffect, useRef } from 'react';

type Validator<T> = (values: T) => FormErrors;

/**
 * A form validator that arrives after the page: the protocol's zod schemas are ~40 kB of gzip, too
 * much for the first visit to /login. The validator loads right after the first render, long before
 * anyone has typed; `ready()` lets a submit that beats it wait for it instead of skipping the checks.
 */
export function useLazyValidation<T>(load: () => Promise<Validator<T>>) {
  const validator = useRef<Validator<T> | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const loadRef = useRef(load);

  const ready = useCallback(
    () =>
      (loading.current ??= loadRef.current().then((v) => {
        validator.current = v;
      })),
    [],
  );
  useEffect(() => {
    void ready();
  }, [ready]);

  const validate = useCallback((values: T): FormErrors => validator.current?.(values) ?? {}, []);
  return { validate, ready };
}
