// Bundles the server's own code into dist/server (node_modules stay external): main.js, and the
// operator's tools that must run in a production image without tsx (move-to-shared.js).
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', 'move-to-shared': 'src/server/tools/move-to-shared-cli.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
