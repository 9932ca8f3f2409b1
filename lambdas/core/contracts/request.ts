// core -> the `request` part of an upload, checked field by field in the order of interface.md's
// `request` table and its rules (decisions.md §1), each fault with its own code. Each field's form is
// its schema in interface-schemas.ts (which the OpenAPI document shows); the rules between fields
// (which product takes which field) are here.
import type * as z from 'zod/mini';
import { fail } from '../errors';
import {
  ClientId,
  ClientIds,
  ContractRequest as ContractRequestSchema,
  EMAIL,
  ExternalReference,
  MAX_CLIENTS,
  Product as ProductSchema,
  Recipient as RecipientSchema,
  ReviewKind,
  VersionRequest as VersionRequestSchema,
} from '../interface-schemas';
import { parseJson } from '../json';
import { PRODUCTS, type Product, REVIEW_KINDS, type Recipient, type ReviewKind as Review } from '../model';

export interface ContractRequest {
  externalReference: string;
  product: Product;
  review: Review | null;
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
const parseObject = (text: string, schema: z.ZodMiniObject): Json => {
  const allowed = Object.keys(schema.shape);
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
  const reference = ExternalReference.safeParse(value);
  if (!reference.success) {
    return fail(
      'external_reference_invalid',
      '`external_reference` must be a string of 1 to 200 printable characters.',
    );
  }
  return reference.data;
};

const readProduct = (value: unknown): Product => {
  if (!present(value)) return fail('product_required', `Send \`product\`, one of ${PRODUCTS.join(', ')}.`);
  const product = ProductSchema.safeParse(value);
  if (!product.success) return fail('product_invalid', `\`product\` must be one of ${PRODUCTS.join(', ')}.`);
  return product.data;
};

const readReview = (value: unknown, product: Product): Review | null => {
  if (product !== 'legal_information') {
    if (present(value))
      fail(
        'review_not_applicable',
        `\`review\` applies only to legal_information; leave it out for ${product}.`,
      );
    return null;
  }
  if (!present(value)) return fail('review_required', 'legal_information needs `review`; send "lawyer".');
  const review = ReviewKind.safeParse(value);
  if (!review.success) {
    return fail(
      'review_invalid',
      `\`review\` must be one of ${REVIEW_KINDS.join(', ')}; only "lawyer" is available.`,
    );
  }
  if (review.data !== 'lawyer')
    return fail('review_not_available', `The review "${review.data}" is not available; send "lawyer".`);
  return review.data;
};

/** What is wrong with `clients` that its schema refused, for the message. */
const whyClientsInvalid = (value: unknown): string => {
  if (!Array.isArray(value)) return 'it is not an array';
  if (value.length > MAX_CLIENTS) return `it has ${value.length}`;
  const malformed = value.find((entry) => !ClientId.safeParse(entry).success);
  if (malformed !== undefined) return `${JSON.stringify(malformed)} is not a client id`;
  return `${value.find((entry, index) => value.indexOf(entry) !== index)} is named twice`;
};

/** `clients`: up to 10 `cli_…` ids, each once; `null` or absent is `undefined`. */
const readClients = (value: unknown): string[] | undefined => {
  if (!present(value)) return undefined;
  const clients = ClientIds.safeParse(value);
  if (clients.success) return clients.data;
  return fail(
    'clients_invalid',
    `\`clients\` must be an array of up to ${MAX_CLIENTS} distinct cli_… ids; ${whyClientsInvalid(value)}.`,
  );
};

const RECIPIENT_FIELDS = ['first_name', 'last_name', 'email'] as const;

/** What is wrong with a `recipient` that its schema refused, for the message. */
const whyRecipientInvalid = (value: unknown): string => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
  const fields = value as Json;
  const extra = Object.keys(fields).find((f) => !(RECIPIENT_FIELDS as readonly string[]).includes(f));
  if (extra !== undefined) return `\`${extra}\` is not one of them`;
  const shape = RecipientSchema.shape;
  const wrong = RECIPIENT_FIELDS.find((field) => !shape[field].safeParse(fields[field]).success);
  // An email that is printable text but not an address says so; anything else is missing or empty.
  if (wrong === 'email' && shape.first_name.safeParse(fields.email).success)
    return '`email` is not an email address';
  return `\`${wrong ?? 'recipient'}\` is missing or empty`;
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
  const recipient = RecipientSchema.safeParse(value);
  if (!recipient.success) {
    return fail(
      'recipient_invalid',
      `\`recipient\` must be { first_name, last_name, email }, all non-empty strings; ${whyRecipientInvalid(value)}.`,
    );
  }
  const { first_name: firstName, last_name: lastName, email } = recipient.data;
  return { firstName, lastName, email };
};

/** The `request` of `POST /v1/contract-reviews`. */
export const readContractRequest = (text: string): ContractRequest => {
  const json = parseObject(text, ContractRequestSchema);
  const externalReference = readExternalReference(json.external_reference);
  const product = readProduct(json.product);
  const review = readReview(json.review, product);
  const clients = readClients(json.clients) ?? [];
  const recipient = readRecipient(json.recipient, product, clients);
  return { externalReference, product, review, clients, recipient };
};

/** The `request` of `POST /v1/contract-reviews/{id}/versions`, against the latest version. */
export const readVersionRequest = (text: string, latestVersion: number): VersionRequest => {
  const json = parseObject(text, VersionRequestSchema);
  const based = json.based_on_version;
  if (!present(based))
    return fail('based_on_version_required', 'Send `based_on_version`, the latest version you know.');
  const version = VersionRequestSchema.shape.based_on_version.safeParse(based);
  if (!version.success || version.data > latestVersion) {
    return fail(
      'based_on_version_invalid',
      `\`based_on_version\` must be an integer from 1 to ${latestVersion}, the latest version.`,
    );
  }
  return { basedOnVersion: version.data, clients: readClients(json.clients) };
};

/** Whether a client's name and email can address a `legal_advice` review. */
export const usableAsRecipient = (client: { firstName: string; lastName: string; email: string }): boolean =>
  client.firstName.trim() !== '' && client.lastName.trim() !== '' && EMAIL.test(client.email.trim());
