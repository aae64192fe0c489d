// Broker connection URLs, one parser for the five broker types. Kafka and NATS take several
// brokers in one URL (kafka://b1:9092,b2:9092), which WHATWG URL cannot parse, hence our own.
// User info is split off: the URL is stored and shown without it, the password is sealed.

export const BROKER_TYPES = ['rabbitmq', 'kafka', 'nats', 'sqs', 'redis'] as const;
export type BrokerType = (typeof BROKER_TYPES)[number];

export const BROKER_SCHEMES: Record<BrokerType, readonly string[]> = {
  rabbitmq: ['amqp', 'amqps'],
  kafka: ['kafka', 'kafka+ssl'],
  nats: ['nats', 'tls'],
  // SQS queue URLs (https://sqs.<region>.amazonaws.com/<account>/<queue>); http for local emulators
  sqs: ['https', 'http'],
  redis: ['redis', 'rediss'],
};

/** brokers that accept a comma-separated host list */
const MULTI_HOST: readonly BrokerType[] = ['kafka', 'nats'];

export interface BrokerUrl {
  /** the URL without user info */
  url: string;
  scheme: string;
  hosts: string[];
  username?: string;
  password?: string;
}

const URL_RE = /^([a-z][a-z0-9+.-]*):\/\/(?:([^:@/?#]*)(?::([^@/?#]*))?@)?([^/?#@]+)(\/[^?#]*)?(\?[^#]*)?$/i;
const HOST_RE = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(?::(\d{1,5}))?$/;

/** Parse and check a broker URL; returns a message naming the problem instead of throwing. */
export function parseBrokerUrl(type: BrokerType, raw: string): BrokerUrl | string {
  const m = URL_RE.exec(raw.trim());
  if (!m) return `url must look like ${BROKER_SCHEMES[type][0]}://host:port`;
  const [, schemeRaw, user, pass, hostPart, path = '', query = ''] = m;
  const scheme = schemeRaw.toLowerCase();
  if (!BROKER_SCHEMES[type].includes(scheme)) return `url of a ${type} broker must use ${BROKER_SCHEMES[type].map((s) => `${s}://`).join(' or ')}`;
  const hosts = hostPart.split(',');
  if (hosts.length > 1 && !MULTI_HOST.includes(type)) return `url of a ${type} broker names one host`;
  if (hosts.length > 50) return 'url names more than 50 hosts';
  for (const h of hosts) {
    const hm = HOST_RE.exec(h);
    if (!hm || (hm[1] !== undefined && Number(hm[1]) > 65535)) return `url: "${h}" is not a host[:port]`;
  }
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = user ? decodeURIComponent(user) : undefined;
    password = pass ? decodeURIComponent(pass) : undefined;
  } catch {
    return 'url: user info is not valid percent-encoding';
  }
  return { url: `${scheme}://${hosts.join(',')}${path}${query}`, scheme, hosts, username, password };
}
