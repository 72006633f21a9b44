// `npm start`: serves the built PWA and the API from one process; builds first when the build is missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = existsSync('dist/client/index.html') && existsSync('dist/server/main.js');
if (!built) {
  console.log('No build found: building the app once (npm run build)...');
  execSync('npm run build', { stdio: 'inherit' });
}
await import('../dist/server/main.js');
