import * as path from 'node:path';

/**
 * Where the benchmarks find what they measure and leave what they measured, from their build
 * (backend/dist-bench/bench/, `tsconfig.bench.json`): the API's own build (`npm run build -w backend`), and the
 * repository's bench-results/.
 */
export const API_MAIN = path.resolve(__dirname, '../../dist/main.js');
export const RESULTS_DIR = path.resolve(__dirname, '../../../bench-results');
