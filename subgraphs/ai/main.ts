// npm run start:ai: the ai subgraph alone (needs DATABASE_URL, or the embedded server from npm run start:db).
import { runStandaloneSubgraph } from '../../lib/process.js';
import { ai } from './index.js';

await runStandaloneSubgraph(ai);
