// adapter -> the one DynamoDB table of an environment: its key schema and indexes, shared by the CDK
// stateful stack and by the local stack, which creates the same table in DynamoDB Local.

/** Partition and sort key of every item. */
export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';

/** Newest-first lists of one scope: contract reviews and clients of an integration. */
export const LIST_INDEX = { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } as const;

/**
 * A second list an item may be in: the newest-first clients of one onboarding; the webhook messages
 * pending delivery, oldest first (the delivery re-drive's list).
 */
export const SECOND_INDEX = { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' } as const;

/** Items that expire (idempotency keys, rate-limit buckets) carry epoch seconds here. */
export const TTL_ATTRIBUTE = 'expires_at';

export const GLOBAL_INDEXES = [LIST_INDEX, SECOND_INDEX] as const;

/** The table name the local stack uses for an environment. */
export const localTableName = (environment: string): string => `service-${environment}`;

/**
 * The local stack's identity table: people and the identity provider's state, shared by both
 * environments, with the same key schema, indexes and TTL attribute as an environment's table.
 */
export const LOCAL_IDENTITY_TABLE = 'service-identity';
