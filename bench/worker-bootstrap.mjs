// Worker threads do not inherit tsx's hooks: register them, then load the TypeScript module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
