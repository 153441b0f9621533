import type { ApiResponse } from './http.js';

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  /** The Content-Type the part declares (FormData sends application/octet-stream without one). */
  type?: string;
}

/** POST /api/uploads as a browser sends it: multipart/form-data with one `file` part per file. */
export async function upload(baseUrl: string, token: string | undefined, files: UploadFile[], field = 'file'): Promise<ApiResponse> {
  const form = new FormData();
  for (const file of files) form.append(field, new Blob([file.bytes], { type: file.type ?? '' }), file.name);
  const res = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
}

/** The ids of a successful upload (fails the test with the answer otherwise). */
export async function uploadIds(baseUrl: string, token: string, files: UploadFile[]): Promise<number[]> {
  const res = await upload(baseUrl, token, files);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { uploads: Array<{ id: number }> }).uploads.map((u) => u.id);
}

/** GET /api/attachments/:id: status, headers, and the bytes (or the JSON error). */
export async function download(
  baseUrl: string,
  token: string | undefined,
  id: number | string,
): Promise<{ status: number; headers: Headers; bytes: Buffer; json?: unknown }> {
  const res = await fetch(`${baseUrl}/api/attachments/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json')
    ? (JSON.parse(bytes.toString('utf8')) as unknown)
    : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}
