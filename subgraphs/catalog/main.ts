// npm run start:catalog: the catalog subgraph alone (needs DATABASE_URL, or the embedded server from npm run start:db).
import { runStandaloneSubgraph } from '../../lib/process.js';
import { catalog } from './index.js';

await runStandaloneSubgraph(catalog);
