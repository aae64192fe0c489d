// The generated contract between the processes: what every subgraph declares on its
// SubgraphDefinition (error codes, event types, subscription fields, the limits the edges enforce),
// written by `npm run compose` (scripts/compose.ts) to schema/contract.json beside the supergraph and
// checked by the drift test. The gateway and the REST bridge read it at start, as they read
// schema/supergraph.graphql: they never import a subgraph's code.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const CONTRACT_FILE = resolve(import.meta.dirname, '..', 'schema', 'contract.json');

/** What an edge needs to know about an error code (lib/errors.ts throws and renders them). */
export interface ErrorDef {
  status: number;
  title: string;
  /** REST bridge rendering, for codes that differ from the service's rule */
  rest?: {
    /** the spelling on services that write codes in lower snake case (default: the code lower-cased, '-' → '_') */
    snakeCode?: string;
    /** rendered alone as `{ error: { code, message, status } }` instead of in the service's error list */
    singleObjectBody?: boolean;
  };
}

/** A Subscription root field the gateway serves for a subgraph's events (docs/architecture.md). */
export interface SubscriptionField {
  /** the field's name on the Subscription root */
  field: string;
  /** the field's SDL inside `type Subscription { … }`: description, arguments and type */
  sdl: string;
  /** the event object type the field returns (declared in the subgraph's `types` SDL) */
  eventType: string;
  /** the scope a subscriber's key needs */
  scope: string;
  /** the topic name; an app's topic is `<topic>:<app id>:<environment>` (lib/events.ts appTopic) */
  topic: string;
  /** the entity the event names, fetched through the supergraph with the subscriber's selection */
  entity: {
    /** the event type's field that holds the entity */
    field: string;
    /** the supergraph root query that fetches it by id */
    query: string;
    idArg: string;
    idType: string;
    /** the payload field that holds the id */
    idFrom: string;
  };
  /** only these event names of the topic (default: every event) */
  events?: readonly string[];
  /** field argument → the payload field it must equal, when the subscriber gives the argument */
  argFilters?: Readonly<Record<string, string>>;
}

/** What a subgraph declares for the gateway's Subscription root: its event types' SDL and its fields. */
export interface SubgraphSubscriptions {
  /** SDL of the event object types the fields return */
  types: string;
  fields: readonly SubscriptionField[];
}

/** A page size an edge checks before calling the subgraph (the subgraph checks it again). */
export interface PageLimit {
  default: number;
  max: number;
}

/** An upload the REST bridge streams to the object store for the subgraph (grant purpose, size, types). */
export interface UploadLimit {
  purpose: string;
  maxBytes: number;
  types: readonly string[];
}

/** The limits the edges enforce for a subgraph, by name (e.g. pages.products, uploads.productImage). */
export interface ContractLimits {
  pages?: Readonly<Record<string, PageLimit>>;
  uploads?: Readonly<Record<string, UploadLimit>>;
}

export interface ServiceContract {
  errorCodes: Readonly<Record<string, ErrorDef>>;
  eventTypes: readonly string[];
  limits: ContractLimits;
}

export interface Contract {
  /** by subgraph name, in supergraph.yaml's order */
  services: Readonly<Record<string, ServiceContract>>;
  subscriptions: {
    /** the Subscription root and its event types, extending the supergraph's API schema */
    sdl: string;
    fields: readonly (SubscriptionField & { owner: string })[];
  };
}

let cache: Contract | undefined;

/** schema/contract.json (or `file`), read once per process for the default file. */
export function loadContract(file = CONTRACT_FILE): Contract {
  if (file === CONTRACT_FILE && cache) return cache;
  const contract = JSON.parse(readFileSync(file, 'utf8')) as Contract;
  if (!contract || typeof contract.services !== 'object' || !contract.subscriptions) throw new Error(`${file} is not a contract: run \`npm run compose\``);
  if (file === CONTRACT_FILE) cache = contract;
  return contract;
}

/** A service's page limit `name`; a contract without it stops the process at start. */
export function pageLimit(contract: Contract, service: string, name: string): PageLimit {
  const limit = contract.services[service]?.limits.pages?.[name];
  if (!limit) throw new Error(`schema/contract.json has no page limit ${service}.${name}: run \`npm run compose\``);
  return limit;
}

/** A service's upload limit `name`; a contract without it stops the process at start. */
export function uploadLimit(contract: Contract, service: string, name: string): UploadLimit {
  const limit = contract.services[service]?.limits.uploads?.[name];
  if (!limit) throw new Error(`schema/contract.json has no upload limit ${service}.${name}: run \`npm run compose\``);
  return limit;
}

/** Every service's error codes, with their owner: codes belong to one service. */
export function contractErrorCodes(contract: Contract): Map<string, ErrorDef & { owner: string }> {
  const out = new Map<string, ErrorDef & { owner: string }>();
  for (const [owner, s] of Object.entries(contract.services)) for (const [code, def] of Object.entries(s.errorCodes)) out.set(code, { ...def, owner });
  return out;
}
