import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NGINX_BINARY = process.env.NGINX_BINARY ?? '/usr/sbin/nginx';
/** The configuration shipped for operators (compose.yaml renders the same file). */
export const NGINX_TEMPLATE = path.resolve(import.meta.dirname, '../../deploy/nginx/entreno.conf.template');

export type Nginx = { url: string; child: ChildProcess; dir: string; stop(): Promise<void>; log(): Promise<string> };

/** Fills `${NAME}` placeholders as the nginx image's envsubst does; an unknown one is an error. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z0-9_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template placeholder \${${name}} has no value`);
    return value;
  });
}

/**
 * nginx in the foreground (a child of the test, `daemon off`), with its own prefix, pid, logs
 * and temporary directories, serving the shipped template rendered with these ports.
 */
export async function startNginx(options: { port: number; nodes: [string, string] }): Promise<Nginx> {
  const dir = await mkdtemp(path.join(tmpdir(), 'entreno-nginx-'));
  // Worker processes run as an unprivileged user when the test runs as root: let them in.
  await chmod(dir, 0o755);
  const site = renderTemplate(await readFile(NGINX_TEMPLATE, 'utf8'), {
    ENTRENO_LISTEN: `127.0.0.1:${options.port}`,
    ENTRENO_NODE_1: options.nodes[0],
    ENTRENO_NODE_2: options.nodes[1],
  });
  await writeFile(path.join(dir, 'entreno.conf'), site);
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`),
      `  include ${dir}/entreno.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(NGINX_BINARY, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    dir,
    log: () => readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
