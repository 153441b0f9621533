import type { Attachment, UploadResponse } from '@helpdesk/protocol';
import { saveBlob } from '../lib/saveBlob';
import { getToken } from '../state/session';
import { ApiError } from './ApiError';
import { API_BASE, fetchFile } from './http';

const UPLOAD_URL = '/uploads';

/**
 * Sends one file to POST /api/uploads (docs/api.md#attachments). XMLHttpRequest, not fetch: only it
 * reports upload progress, as a fraction 0–1. Resolves with the stored file; a refusal rejects with an
 * ApiError carrying the server's words (`Each file can be at most 25 MB`).
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Attachment> {
  return new Promise<Attachment>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + UPLOAD_URL);
    xhr.responseType = 'text';
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const payload = parse(xhr.responseText) as Partial<UploadResponse> & { message?: unknown };
      const stored = payload.uploads?.[0];
      if (xhr.status >= 200 && xhr.status < 300 && stored) {
        onProgress(1);
        resolve(stored);
        return;
      }
      const serverMessage = typeof payload.message === 'string' ? payload.message : undefined;
      reject(new ApiError({ kind: 'response', status: xhr.status, url: UPLOAD_URL, serverMessage }, {}, payload));
    });
    xhr.addEventListener('error', () => reject(new ApiError({ kind: 'no-response', url: UPLOAD_URL })));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/**
 * A file's bytes, read with the session's token (GET /api/attachments/:id): the page shows previews
 * and saves downloads from these, since a plain link or <img> would carry no token.
 */
export async function fetchAttachment(id: number, signal?: AbortSignal): Promise<Blob> {
  return (await fetchFile(`/attachments/${id}`, signal)).blob;
}

/** Saves a file under its name, as a download link would. */
export async function saveAttachment(file: Attachment): Promise<void> {
  saveBlob(await fetchAttachment(file.id), file.filename);
}
