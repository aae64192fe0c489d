// npm run start:search: the search subgraph alone (needs DATABASE_URL, or the embedded server from npm run start:db).
import { runStandaloneSubgraph } from '../../lib/process.js';
import { search } from './index.js';

await runStandaloneSubgraph(search);
