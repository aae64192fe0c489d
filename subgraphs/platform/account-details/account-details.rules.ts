// Validation of account details, field by field; each failure names the REST parameter.
import { fail, optionalEmail, optionalHttpUrl, optionalText } from '../validation.js';
import type { Branding, Contact, PostalAddress } from './account-details.entity.js';
import type { BrandingInput, ContactInput, PostalAddressInput } from './account-details.inputs.js';

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });
const COLOR_RE = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const PHONE_RE = /^\+?[0-9][0-9 ()-]{4,30}[0-9]$/;

/** ISO 3166-1 alpha-2 (what ICU knows as a region name), upper-cased. */
export function countryCode(v: string | undefined | null, parameter: string): string | undefined {
  const c = optionalText(v, parameter, 2)?.toUpperCase();
  if (c === undefined) return undefined;
  if (!/^[A-Z]{2}$/.test(c) || REGIONS.of(c) === c || c === 'ZZ') fail(parameter, `${parameter} must be an ISO 3166-1 alpha-2 country code such as US or DE`);
  return c;
}

/** #RGB or #RRGGBB, stored as lower-case #rrggbb. */
export function color(v: string | undefined | null, parameter: string): string | undefined {
  const c = optionalText(v, parameter, 7);
  if (c === undefined) return undefined;
  if (!COLOR_RE.test(c)) fail(parameter, `${parameter} must be a colour such as #1a2b3c`);
  const hex = c.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((x) => x + x).join('') : hex}`;
}

export function phone(v: string | undefined | null, parameter: string): string | undefined {
  const p = optionalText(v, parameter, 32);
  if (p !== undefined && !PHONE_RE.test(p)) fail(parameter, `${parameter} must be a phone number such as +1 415 555 0100`);
  return p;
}

type Patch<T> = { [K in keyof T]?: T[K] | undefined };

/** Merge the given keys of `input` over `current`: a value sets, null clears, absent keeps. */
function merge<T extends object>(current: T, patch: Patch<T>, given: object): T {
  const out: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const k of Object.keys(given)) {
    const v = (patch as Record<string, unknown>)[k];
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out as T;
}

export function mergeAddress(current: PostalAddress, i: PostalAddressInput): PostalAddress {
  return merge(
    current,
    {
      line1: optionalText(i.line1, 'address.line1', 200),
      line2: optionalText(i.line2, 'address.line2', 200),
      city: optionalText(i.city, 'address.city', 100),
      region: optionalText(i.region, 'address.region', 100),
      postalCode: optionalText(i.postalCode, 'address.postal_code', 20),
      country: countryCode(i.country, 'address.country'),
    },
    defined(i),
  );
}

export function mergeContact(current: Contact, i: ContactInput): Contact {
  return merge(
    current,
    { name: optionalText(i.name, 'contact.name', 200), email: optionalEmail(i.email, 'contact.email'), phone: phone(i.phone, 'contact.phone') },
    defined(i),
  );
}

export function mergeBranding(current: Branding, i: BrandingInput): Branding {
  const { logoUrl: _readOnly, ...rest } = i;
  return merge(
    current,
    {
      primaryColor: color(i.primaryColor, 'branding.primary_color'),
      secondaryColor: color(i.secondaryColor, 'branding.secondary_color'),
      accentColor: color(i.accentColor, 'branding.accent_color'),
    },
    defined(rest),
  );
}

export function website(v: string | undefined | null): string | undefined {
  return optionalHttpUrl(v, 'website');
}

/** the keys the client actually sent (type-graphql leaves absent ones undefined) */
function defined(o: object): object {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
