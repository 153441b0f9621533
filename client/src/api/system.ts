import type { ConfigResponse } from '@helpdesk/protocol';
import { http } from './http';

export const systemApi = {
  config: (signal?: AbortSignal) => http.get<ConfigResponse>('/config', { signal }),
};
