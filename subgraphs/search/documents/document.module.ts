// Documents of an index and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { DocumentEntity } from './document.entity.js';
import { DocumentFieldEntity } from './document-field.entity.js';
import { DocumentResolver } from './document.resolver.js';

export const documentModule: SubgraphModule<SearchContext> = {
  name: 'documents',
  entities: [DocumentEntity, DocumentFieldEntity],
  resolvers: [DocumentResolver],
};
