// Bundles the server's own code (node_modules stay external): main.js, the demo data's seeder that
// main.js starts as a child on a first start (seed-demo.js), and the operator's tools that must run
// in a production image without tsx (move-to-shared.js, moderator.js). Into
// dist/server, or the directory given (`node scripts/build-server.mjs <dir>`, the test suite's
// bundle: tests/helpers/server-bundle-setup.ts), with `<name>=<file>` entry points added.
import { build } from 'esbuild';

const [outdir = 'dist/server', ...extras] = process.argv.slice(2);

await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'move-to-shared': 'src/server/tools/move-to-shared-cli.ts',
    moderator: 'src/server/tools/moderator-cli.ts',
    'seed-demo': 'src/server/tools/seed-demo-cli.ts',
    ...Object.fromEntries(extras.map((extra) => extra.split('='))),
  },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
