import type { Attachment } from '@helpdesk/protocol';
import { act } from 'react';
import { vi } from 'vitest';

/** One POST /api/uploads in flight: the test moves its progress and decides its answer. */
export interface FakeUpload {
  file: File;
  url: string;
  authorization: string | undefined;
  aborted: boolean;
  progress(fraction: number): void;
  /** Settles the upload; awaited, so what the page does with the answer has happened. */
  succeed(attachment: Attachment): Promise<void>;
  fail(status: number, message: string): Promise<void>;
}

/**
 * Stands in for XMLHttpRequest, the browser's boundary for uploads (fetch has no upload progress),
 * as fakeServer does for fetch. Every upload started is listed, in order.
 */
export function fakeUploads(): FakeUpload[] {
  const uploads: FakeUpload[] = [];
  class FakeXhr {
    readonly upload = new EventTarget();
    private readonly events = new EventTarget();
    private readonly headers: Record<string, string> = {};
    private url = '';
    private record: FakeUpload | undefined;
    status = 0;
    responseText = '';
    responseType = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    addEventListener(type: string, listener: EventListener) {
      this.events.addEventListener(type, listener);
    }
    abort() {
      if (this.record) this.record.aborted = true;
      this.events.dispatchEvent(new Event('abort'));
    }
    send(body: FormData) {
      const answer = (status: number, payload: unknown) =>
        act(async () => {
          this.status = status;
          this.responseText = JSON.stringify(payload);
          this.events.dispatchEvent(new Event('load'));
          await Promise.resolve();
        });
      const upload: FakeUpload = {
        file: body.get('file') as File,
        url: this.url,
        authorization: this.headers.authorization,
        aborted: false,
        progress: (fraction) =>
          act(() => {
            this.upload.dispatchEvent(
              Object.assign(new Event('progress'), { lengthComputable: true, loaded: fraction * 1000, total: 1000 }),
            );
          }),
        succeed: (attachment) => answer(201, { success: true, uploads: [attachment] }),
        fail: (status, message) => answer(status, { success: false, message }),
      };
      this.record = upload;
      uploads.push(upload);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return uploads;
}
