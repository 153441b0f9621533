import { MESSAGES } from '@helpdesk/protocol';

const C = MESSAGES.client;

/** What went wrong with a call, in the terms of the catalogue in docs/product.md#error-messages. */
export type Failure =
  | { kind: 'response'; status: number; url: string; serverMessage?: string }
  | { kind: 'no-response'; url: string }
  | { kind: 'setup'; url: string; reason: string };

/** The one text a failed call shows, whatever the screen (docs/product.md#error-messages). */
export function catalogueMessage(failure: Failure): string {
  switch (failure.kind) {
    case 'no-response':
      return C.noResponse;
    case 'setup':
      return C.requestSetup(failure.reason);
    case 'response':
      if (failure.status === 401) return C.status401;
      if (failure.status === 403) return C.status403;
      if (failure.status === 404) return C.status404(failure.url);
      if (failure.status >= 500) return C.status5xx;
      return failure.serverMessage || C.fallback;
  }
}
