// npm run start:platform: the platform subgraph alone (needs DATABASE_URL, or the embedded server from npm run start:db).
import { runStandaloneSubgraph } from '../../lib/process.js';
import { platform } from './index.js';

await runStandaloneSubgraph(platform);
