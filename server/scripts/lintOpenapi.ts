// Writes the API document the server serves and lints it with Redocly (npm run lint:openapi), so a
// schema that renders to invalid OpenAPI fails `npm test` before anyone opens /api/docs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiDocument } from '../src/openapi/document.js';

const dir = mkdtempSync(path.join(tmpdir(), 'helpdesk-openapi-'));
const file = path.join(dir, 'openapi.json');
try {
  writeFileSync(file, JSON.stringify(createApiDocument(), null, 2));
  const lint = spawnSync('redocly', ['lint', file, '--max-problems', '50'], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
