// Writes .br and .gz next to each compressible file of the built PWA, so the server sends
// precompressed bytes (@fastify/static `preCompressed`) without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../dist/client');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 1024;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

let files = 0;
for (const file of walk(root)) {
  if (!COMPRESSIBLE.test(file) || file.endsWith('.map')) continue;
  const source = readFileSync(file);
  if (source.length < MIN_BYTES) continue;
  writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
  files++;
}
console.log(`compress-client: ${files} files precompressed (br, gz)`);
