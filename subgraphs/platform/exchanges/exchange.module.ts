// Exchanges: an account's broker connections and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { ExchangeEntity } from './exchange.entity.js';
import { ExchangeResolver } from './exchange.resolver.js';

export const exchangeModule: SubgraphModule<PlatformContext> = {
  name: 'exchanges',
  entities: [ExchangeEntity],
  resolvers: [ExchangeResolver],
};
