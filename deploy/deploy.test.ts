/**
 * The deployment files, checked by the programs that read them, without a Docker engine:
 * docker-compose validates and interpolates docker-compose.yml, dockerfile-utils validates the
 * Dockerfile (dockerfile-ast reads its stages), and nginx -t checks deploy/nginx.conf.
 * Under CI a missing docker-compose or nginx fails the run; elsewhere those checks are skipped, named.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MAX_BODY_BYTES } from '@helpdesk/protocol';
import { Cmd, Copy, DockerfileParser, From, Healthcheck, Run, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { find, parseNginxConf, sizeInBytes, type Directive } from './nginxConf.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const run = promisify(execFile);
const JWT_SECRET = 'deploy-test-secret-0123456789abcdef';

/** An executable on PATH, or in the sbin directories where Debian puts nginx. */
function findTool(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs `body` with the tool's path; without the tool, fails under CI and skips (named) elsewhere. */
function describeWithTool(name: string, debianPackage: string, title: string, body: (bin: string) => void) {
  const bin = findTool(name);
  if (bin) return describe(title, () => body(bin));
  const reason = `${name} is not installed (apt-get install --no-install-recommends ${debianPackage})`;
  if (process.env.CI) {
    test(`${title}: ${name} is available`, () => {
      throw new Error(`CI must check ${title} with ${name}, but ${reason}.`);
    });
  } else {
    console.warn(`deploy checks: ${title} skipped because ${reason}`);
    describe.skip(`${title} — skipped: ${reason}`, () => test('needs the tool', () => undefined));
  }
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

interface Service {
  image?: string;
  build?: unknown;
  deploy?: { replicas?: number };
  environment?: Record<string, string | null>;
  ports?: unknown[];
  volumes?: (string | { type?: string; source?: string; target?: string; read_only?: boolean })[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  restart?: string;
}
interface ComposeConfig {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** A volume entry in either syntax (`src:target[:mode]` or the long form) as one shape. */
function mounts(service: Service) {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source, target: v.target, readOnly: v.read_only === true };
    const [source, target, mode] = v.split(':');
    return { source, target, readOnly: mode?.split(',').includes('ro') ?? false };
  });
}

/** The container side of a port entry in either syntax (`8080:80[/tcp]` or `{ target: 80 }`). */
function containerPort(entry: unknown): number {
  if (typeof entry === 'object' && entry !== null && 'target' in entry) return Number(entry.target);
  return Number(String(entry).split(':').at(-1)?.split('/')[0]);
}

function healthcheckCommand(service: Service): string {
  const check = service.healthcheck;
  const testCmd = Array.isArray(check?.test) ? check.test : [check?.test ?? ''];
  return check?.disable || testCmd[0] === 'NONE' ? '' : testCmd.join(' ');
}

describeWithTool('docker-compose', 'docker-compose', 'docker-compose.yml', (compose) => {
  let dir: string;
  let emptyEnvFile: string;
  // An empty --env-file and a clean environment, so a developer's .env or shell cannot change the result.
  const composeConfig = (extraEnv: Record<string, string>, ...args: string[]) => {
    const unset = ['POSTGRES_PASSWORD', 'PUBLIC_URL', 'HTTP_PORT', 'COMPOSE_FILE', 'COMPOSE_PROJECT_NAME'];
    if (!('JWT_SECRET' in extraEnv)) unset.push('JWT_SECRET');
    const env = Object.fromEntries(Object.entries({ ...process.env, ...extraEnv }).filter(([name]) => !unset.includes(name)));
    return run(compose, ['--env-file', emptyEnvFile, '-f', 'docker-compose.yml', 'config', ...args], { cwd: ROOT, env });
  };
  // Read once, on first use, so a broken file fails each test that needs it instead of a hook.
  let resolved: Promise<ComposeConfig> | undefined;
  const loadConfig = () => (resolved ??= composeConfig({ JWT_SECRET }).then(({ stdout }) => parseYaml(stdout) as ComposeConfig));

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'helpdesk-deploy-'));
    emptyEnvFile = path.join(dir, 'empty.env');
    writeFileSync(emptyEnvFile, '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('passes `docker-compose config -q`', async () => {
    await expect(composeConfig({ JWT_SECRET }, '-q')).resolves.toMatchObject({ stdout: '' });
  });

  test('refuses to start without JWT_SECRET, saying what to set', async () => {
    const failure = await composeConfig({}, '-q').then(
      () => undefined,
      (error: unknown) => error as { code?: number; stderr?: string },
    );
    expect(failure?.code, 'docker-compose config must fail without JWT_SECRET').toBe(1);
    expect(failure?.stderr).toContain('set JWT_SECRET to a random string of at least 32 characters');
  });

  test('runs postgres, redis, the app and the load balancer, each with a healthcheck and a restart policy', async () => {
    const config = await loadConfig();
    expect(Object.keys(config.services).sort()).toEqual(['app', 'lb', 'postgres', 'redis']);
    for (const [name, service] of Object.entries(config.services)) {
      expect(healthcheckCommand(service), `${name} healthcheck`).not.toBe('');
      expect(service.restart, `${name} restart policy`).toMatch(/^(always|unless-stopped|on-failure)/);
    }
  });

  test('keeps PostgreSQL data in a named volume', async () => {
    const config = await loadConfig();
    const data = mounts(config.services.postgres!).find((m) => m.target === '/var/lib/postgresql/data');
    expect(data?.source).toBeDefined();
    expect(Object.keys(config.volumes ?? {})).toContain(data?.source);
  });

  test('builds the app from this repository and runs two replicas that publish no port', async () => {
    const config = await loadConfig();
    const app = config.services.app!;
    expect(app.build).toBeDefined();
    expect(app.deploy?.replicas).toBe(2);
    expect(app.ports ?? []).toEqual([]);
    expect(healthcheckCommand(app)).toContain('/api/health');
  });

  test('configures the app for several processes behind a proxy', async () => {
    const config = await loadConfig();
    const env = config.services.app!.environment ?? {};
    expect(env.JWT_SECRET).toBe(JWT_SECRET);
    expect(env.TRUST_PROXY).toBe('true');
    expect(new URL(env.DATABASE_URL ?? '').hostname).toBe('postgres');
    expect(new URL(env.REDIS_URL ?? '').hostname).toBe('redis');
    expect(env.PUBLIC_URL).toMatch(/^https?:\/\//);
    for (const optional of [
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'SMTP_URL',
      'METRICS_PORT',
      'METRICS_TOKEN',
      'WEBHOOK_ALLOW_HTTP',
      'WEBHOOK_ALLOW_PRIVATE',
      'CSAT_ENABLED',
      'CSAT_TOKEN_TTL_DAYS',
      'REPORT_TIME_ZONE',
    ])
      expect(env, optional).toHaveProperty(optional);
    expect(config.services.app!.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });

  test('puts nginx in front with deploy/nginx.conf mounted read-only and the only published port', async () => {
    const config = await loadConfig();
    const lb = config.services.lb!;
    expect(lb.image).toMatch(/^nginx:/);
    const conf = mounts(lb).find((m) => m.target === '/etc/nginx/nginx.conf');
    expect(conf?.source && path.resolve(ROOT, conf.source)).toBe(path.join(ROOT, 'deploy/nginx.conf'));
    expect(conf?.readOnly).toBe(true);
    expect((lb.ports ?? []).map(containerPort)).toEqual([80]);
    for (const [name, service] of Object.entries(config.services))
      if (name !== 'lb') expect(service.ports ?? [], `${name} ports`).toEqual([]);
    expect(lb.depends_on).toMatchObject({ app: { condition: 'service_healthy' } });
    // Its healthcheck must ask for a path nginx.conf actually answers.
    expect(healthcheckCommand(lb)).toContain('/lb-health');
  });
});

// ---------------------------------------------------------------------------------------------
// Dockerfile

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const dockerfile = DockerfileParser.parse(text);
  // Instructions grouped by stage, in order; the last stage is the image that runs.
  const stages: { from: From; instructions: Instruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction instanceof From) stages.push({ from: instruction, instructions: [] });
    else stages.at(-1)?.instructions.push(instruction);
  }
  const runtime = stages.at(-1)!;
  const of = <T extends Instruction>(kind: new (...args: never[]) => T, stage = runtime) =>
    stage.instructions.filter((i): i is T => i instanceof kind);
  const keyword = (name: string, stage = runtime) => stage.instructions.filter((i) => i.getKeyword() === name);
  // A stage built FROM an earlier stage (by its AS name) stands on that stage's image.
  const baseImage = (from: From): string => {
    const image = (from.getImage() ?? '').replace(
      /\$\{?(\w+)\}?/g,
      (_, name: string) => dockerfile.resolveVariable(name, from.getRange().start.line) ?? '',
    );
    const parent = stages.find((stage) => stage.from !== from && stage.from.getBuildStage() === image);
    return parent ? baseImage(parent.from) : image;
  };

  test('has no problems according to dockerfile-utils', () => {
    const problems = validate(text).map(
      (d) => `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
    );
    expect(problems).toEqual([]);
  });

  test('is multi-stage on a Debian-based Node 20 image (argon2 ships glibc binaries)', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const { from } of stages) expect(baseImage(from)).toMatch(/^node:20[.\d]*-(bookworm|bullseye)(-slim)?$/);
  });

  test('installs runtime dependencies without dev packages, for the server workspace only', () => {
    const copied = of(Copy).find((c) => /(^|\s)\S*node_modules\s/.test(c.getArgumentsContent() ?? ''));
    const fromStage = stages.find((s) => s.from.getBuildStage() === copied?.getFromFlag()?.getValue());
    expect(fromStage, 'the runtime copies node_modules from an earlier stage').toBeDefined();
    const install = of(Run, fromStage)
      .map((r) => r.getArgumentsContent() ?? '')
      .find((c) => /\bnpm ci\b/.test(c));
    expect(install).toMatch(/--omit[= ]dev/);
    expect(install).toMatch(/(-w|--workspace)[= ]server\b/);
  });

  test('the runtime stage holds only build outputs and runs them as a non-root user', () => {
    const sources = of(Copy).map((c) => {
      expect(c.getFromFlag(), `${c.getArgumentsContent()} must come from a build stage`).not.toBeNull();
      return c.getArguments()[0]?.getValue();
    });
    expect(sources.sort()).toEqual(
      ['/app/client/dist', '/app/node_modules', '/app/server/dist', '/app/server/migrations', '/app/server/package.json'].sort(),
    );
    const user = keyword('USER').at(-1)?.getArgumentsContent();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(
      keyword('ENV')
        .map((e) => e.getArgumentsContent())
        .join(' '),
    ).toMatch(/\bNODE_ENV=production\b/);
    expect(keyword('WORKDIR').at(-1)?.getArgumentsContent()).toMatch(/^\//);
    expect(keyword('EXPOSE').map((e) => e.getArgumentsContent())).toContain('3000');
  });

  test('starts the bundled server and checks /api/health', () => {
    const cmd = of(Cmd).at(-1);
    expect(cmd?.getJSONStrings().map((s) => s.getJSONValue())).toEqual(['node', 'server/dist/main.js']);
    const healthcheck = of(Healthcheck).at(-1)?.getArgumentsContent();
    expect(healthcheck).toMatch(/^CMD\b/);
    expect(healthcheck).toContain('/api/health');
  });

  test('leaves dependencies, outputs and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const pattern of ['**/node_modules', '**/dist', '.git', '.env']) expect(ignored).toContain(pattern);
    // The stages copy these from the context, so they must exist (and the server must find migrations).
    for (const file of ['package-lock.json', 'protocol/package.json', 'server/package.json', 'client/package.json', 'server/migrations']) {
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// deploy/nginx.conf

describe('deploy/nginx.conf', () => {
  const conf = parseNginxConf(read('deploy/nginx.conf'));
  const http = find(conf, 'http')[0]?.block;
  const upstream = find(http, 'upstream')[0];
  const server = find(http, 'server')[0]?.block;
  const location = (...args: string[]) => find(server, 'location', ...args)[0]?.block;
  const headers = (block: Directive[] | undefined) =>
    Object.fromEntries(find(block, 'proxy_set_header').map((d) => [d.args[0], d.args[1]]));

  test('balances over the app replicas with sticky sessions (ip_hash)', () => {
    expect(find(upstream?.block, 'ip_hash')).toHaveLength(1);
    expect(find(upstream?.block, 'server')[0]?.args[0]).toBe('app:3000');
  });

  test('proxies Socket.IO with WebSocket upgrades and a long read timeout', () => {
    const socket = location('/socket.io/');
    expect(find(socket, 'proxy_pass')[0]?.args[0]).toBe(`http://${upstream?.args[0]}`);
    expect(find(server, 'proxy_http_version')[0]?.args).toEqual(['1.1']);
    expect(headers(server)).toMatchObject({ Upgrade: '$http_upgrade', Connection: '$connection_upgrade' });
    const map = find(http, 'map', '$http_upgrade', '$connection_upgrade')[0];
    expect(find(map?.block, 'default')[0]?.args).toEqual(['upgrade']);
    const readTimeout = find(socket, 'proxy_read_timeout')[0]?.args[0] ?? '';
    expect(readTimeout).toMatch(/^\d+(m|h|d)$/);
  });

  test('forwards everything else with the client address and scheme', () => {
    expect(find(location('/'), 'proxy_pass')[0]?.args[0]).toBe(`http://${upstream?.args[0]}`);
    expect(headers(server)).toMatchObject({ Host: '$host', 'X-Forwarded-For': '$remote_addr', 'X-Forwarded-Proto': '$scheme' });
    // A location with any proxy_set_header of its own would silently drop all of the server's.
    for (const loc of find(server, 'location')) expect(find(loc.block, 'proxy_set_header'), loc.args.join(' ')).toEqual([]);
  });

  test('accepts every body the API accepts', () => {
    const limit = find(server, 'client_max_body_size')[0]?.args[0];
    expect(limit).toBeDefined();
    expect(sizeInBytes(limit!)).toBeGreaterThanOrEqual(MAX_BODY_BYTES);
  });

  test('keeps the replicas’ metrics off the balancer', () => {
    const metrics = location('=', '/metrics');
    expect(find(metrics, 'return')[0]?.args[0]).toBe('404');
    expect(find(metrics, 'proxy_pass')).toEqual([]);
  });

  test('answers its own health check', () => {
    expect(find(location('=', '/lb-health'), 'return')[0]?.args[0]).toBe('200');
  });
});

describeWithTool('nginx', 'nginx', 'nginx -t', (nginx) => {
  test('accepts deploy/nginx.conf', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'helpdesk-nginx-'));
    try {
      // nginx resolves upstream hosts while loading the config, and `app` exists only on the compose
      // network; a copy pointing at 127.0.0.1 checks everything else exactly as written.
      const copy = path.join(dir, 'nginx.conf');
      writeFileSync(copy, read('deploy/nginx.conf').replaceAll('server app:3000', 'server 127.0.0.1:3000'));
      // -p keeps relative paths in the temporary directory, -e opens no log file before the config's own.
      // stdout goes to a file: the config logs to /dev/stdout, which cannot be opened on a socket.
      const stdout = openSync(path.join(dir, 'stdout'), 'w');
      const child = spawn(nginx, ['-t', '-p', dir, '-e', 'stderr', '-c', copy], { stdio: ['ignore', stdout, 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      closeSync(stdout);
      expect(stderr).toContain('test is successful');
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
