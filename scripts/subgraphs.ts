// The registry of subgraph definitions, keyed as in supergraph.yaml.
import type { SubgraphName } from '../lib/config.js';
import type { SubgraphDefinition } from '../lib/subgraph.js';
import { ai } from '../subgraphs/ai/index.js';
import { catalog } from '../subgraphs/catalog/index.js';
import { platform } from '../subgraphs/platform/index.js';
import { search } from '../subgraphs/search/index.js';

export const SUBGRAPHS: Partial<Record<SubgraphName, SubgraphDefinition<any>>> = { ai, catalog, platform, search };
