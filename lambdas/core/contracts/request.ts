// core -> the `request` part of an upload, checked field by field in the order of interface.md's
// `request` table and its rules (decisions.md §1), each fault with its own code.
import { fail } from '../errors';
import { isClientId } from '../ids';
import { parseJson } from '../json';
import { PRODUCTS, type Product, REVIEW_KINDS, type Recipient, type ReviewKind } from '../model';
import { isPrintableText } from '../text';

export const MAX_CLIENTS = 10;
// Deliberately loose: one @, something either side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ContractRequest {
  externalReference: string;
  product: Product;
  review: ReviewKind | null;
  clients: string[];
  /** The recipient as sent; a `legal_advice` request without one takes its first client's details. */
  recipient: Recipient | null;
}

export interface VersionRequest {
  basedOnVersion: number;
  /** `undefined` keeps the contract's clients; `[]` clears them. */
  clients: string[] | undefined;
}

type Json = Record<string, unknown>;

/** Parses the `request` part: a JSON object with only the `allowed` fields. */
const parseObject = (text: string, allowed: readonly string[]): Json => {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    return fail('request_invalid', `The \`request\` part must be a JSON object; ${parsed.problem}.`);
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('request_invalid', 'The `request` part must be a JSON object.');
  }
  const unknown = Object.keys(value).find((field) => !allowed.includes(field));
  if (unknown !== undefined) {
    fail(
      'request_invalid',
      `The \`request\` field \`${unknown}\` is not known; send only ${allowed.map((f) => `\`${f}\``).join(', ')}.`,
    );
  }
  return value as Json;
};

const present = (value: unknown): boolean => value !== undefined && value !== null;

const readExternalReference = (value: unknown): string => {
  if (!present(value))
    return fail('external_reference_required', 'Send `external_reference`, your own id for this contract.');
  if (typeof value !== 'string' || !isPrintableText(value, 200)) {
    return fail(
      'external_reference_invalid',
      '`external_reference` must be a string of 1 to 200 printable characters.',
    );
  }
  return value;
};

const readProduct = (value: unknown): Product => {
  if (!present(value)) return fail('product_required', `Send \`product\`, one of ${PRODUCTS.join(', ')}.`);
  if (typeof value !== 'string' || !(PRODUCTS as readonly string[]).includes(value)) {
    return fail('product_invalid', `\`product\` must be one of ${PRODUCTS.join(', ')}.`);
  }
  return value as Product;
};

const readReview = (value: unknown, product: Product): ReviewKind | null => {
  if (product !== 'legal_information') {
    if (present(value))
      fail(
        'review_not_applicable',
        `\`review\` applies only to legal_information; leave it out for ${product}.`,
      );
    return null;
  }
  if (!present(value)) return fail('review_required', 'legal_information needs `review`; send "lawyer".');
  if (typeof value !== 'string' || !(REVIEW_KINDS as readonly string[]).includes(value)) {
    return fail(
      'review_invalid',
      `\`review\` must be one of ${REVIEW_KINDS.join(', ')}; only "lawyer" is available.`,
    );
  }
  if (value !== 'lawyer')
    return fail('review_not_available', `The review "${value}" is not available; send "lawyer".`);
  return value;
};

/** `clients`: up to 10 `cli_…` ids, each once; `null` or absent is `undefined`. */
const readClients = (value: unknown): string[] | undefined => {
  if (!present(value)) return undefined;
  const invalid = (why: string) =>
    fail(
      'clients_invalid',
      `\`clients\` must be an array of up to ${MAX_CLIENTS} distinct cli_… ids; ${why}.`,
    );
  if (!Array.isArray(value)) return invalid('it is not an array');
  if (value.length > MAX_CLIENTS) return invalid(`it has ${value.length}`);
  const seen = new Set<string>();
  for (const entry of value) {
    if (typeof entry !== 'string' || !isClientId(entry))
      return invalid(`${JSON.stringify(entry)} is not a client id`);
    if (seen.has(entry)) return invalid(`${entry} is named twice`);
    seen.add(entry);
  }
  return [...seen];
};

const readRecipient = (value: unknown, product: Product, clients: string[]): Recipient | null => {
  if (product !== 'legal_advice') {
    if (present(value))
      fail(
        'recipient_not_applicable',
        `\`recipient\` applies only to legal_advice; leave it out for ${product}.`,
      );
    return null;
  }
  if (!present(value)) {
    if (clients.length === 0) {
      fail(
        'recipient_required',
        'legal_advice needs `recipient` ({ first_name, last_name, email }) or at least one client in `clients`.',
      );
    }
    return null;
  }
  const invalid = (why: string) =>
    fail(
      'recipient_invalid',
      `\`recipient\` must be { first_name, last_name, email }, all non-empty strings; ${why}.`,
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return invalid('it is not an object');
  const fields = value as Json;
  const extra = Object.keys(fields).find((f) => !['first_name', 'last_name', 'email'].includes(f));
  if (extra !== undefined) return invalid(`\`${extra}\` is not one of them`);
  const text = (field: string): string => {
    const v = fields[field];
    if (typeof v !== 'string' || !isPrintableText(v.trim(), 200))
      return invalid(`\`${field}\` is missing or empty`);
    return v.trim();
  };
  const firstName = text('first_name');
  const lastName = text('last_name');
  const email = text('email');
  if (!EMAIL.test(email)) return invalid('`email` is not an email address');
  return { firstName, lastName, email };
};

/** The `request` of `POST /v1/contract-reviews`. */
export const readContractRequest = (text: string): ContractRequest => {
  const json = parseObject(text, ['external_reference', 'product', 'review', 'clients', 'recipient']);
  const externalReference = readExternalReference(json.external_reference);
  const product = readProduct(json.product);
  const review = readReview(json.review, product);
  const clients = readClients(json.clients) ?? [];
  const recipient = readRecipient(json.recipient, product, clients);
  return { externalReference, product, review, clients, recipient };
};

/** The `request` of `POST /v1/contract-reviews/{id}/versions`, against the latest version. */
export const readVersionRequest = (text: string, latestVersion: number): VersionRequest => {
  const json = parseObject(text, ['based_on_version', 'clients']);
  const based = json.based_on_version;
  if (!present(based))
    return fail('based_on_version_required', 'Send `based_on_version`, the latest version you know.');
  if (typeof based !== 'number' || !Number.isInteger(based) || based < 1 || based > latestVersion) {
    return fail(
      'based_on_version_invalid',
      `\`based_on_version\` must be an integer from 1 to ${latestVersion}, the latest version.`,
    );
  }
  return { basedOnVersion: based, clients: readClients(json.clients) };
};

/** Whether a client's name and email can address a `legal_advice` review. */
export const usableAsRecipient = (client: { firstName: string; lastName: string; email: string }): boolean =>
  client.firstName.trim() !== '' && client.lastName.trim() !== '' && EMAIL.test(client.email.trim());
