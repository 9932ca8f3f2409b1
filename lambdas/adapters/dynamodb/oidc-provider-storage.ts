// adapter -> oidc-provider's storage (its `Adapter`: sessions, interactions, grants, codes, tokens,
// registered clients) in the identity table, so that a restart or another instance finds them.
//
// Each artefact is one item, `OIDC#<model>#<id>`, its payload kept as the JSON oidc-provider gave, its
// expiry in the table's TTL attribute. DynamoDB deletes expired items only within a day or two, so reads
// treat an item past its expiry as gone. Lookups by something other than the id are pointer items
// written in the same transaction: a session by its uid, a device code by its user code. Every code and
// token issued under a grant also gets a member item in the grant's partition (`OIDCGRANT#<grantId>`),
// so revoking a grant finds all of them with one strongly consistent query; an index would be only
// eventually consistent, and could miss a token issued a moment before. A grant itself is in the list
// index under its person, for "which clients may act for me" (`ClientGrants`).
//
// A registered client (oidc-provider stores them with no expiry) lapses unless it is used: a day after
// registering, as `CLIENT_LIFETIMES` says, and once a person has let it in, 90 days after the last code
// or token it was issued (each moves its expiry on; at most one write a day per client). Registration is
// open, so a client nobody uses must not be kept for ever.
import {
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { ClientGrant, ClientGrants, Clock } from '../../core/ports';
import type { Item } from './items';
import { byCreation, type ItemKey, keys } from './keys';
import { getItem, getItems, queryAll } from './table';
import { LIST_INDEX, TTL_ATTRIBUTE } from './table-schema';
import { isConditionFailed, transactWrite } from './transactions';

/** The models whose artefacts belong to a grant and are revoked with it (oidc-provider's own list). */
const GRANT_MEMBERS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/** How long a registered client lives (seconds): before it is first used, and after its last use. */
export const CLIENT_LIFETIMES = { unused: 24 * 60 * 60, sinceLastUse: 90 * 24 * 60 * 60 } as const;

/** Its expiry is moved on only when less than this is left of the longer lifetime: a write a day at most. */
const CLIENT_USE_RESOLUTION = 24 * 60 * 60;

/** The artefacts whose issue counts as a use of their client. */
const CLIENT_USES = new Set([...GRANT_MEMBERS, 'Grant']);

/** BatchWriteItem's limit on requests per call. */
const MAX_BATCH_WRITES = 25;

const epochSeconds = (clock: Clock): number => Math.floor(clock.now() / 1e6);

const isExpired = (item: Item, now: number): boolean =>
  typeof item[TTL_ATTRIBUTE] === 'number' && item[TTL_ATTRIBUTE] <= now;

/** oidc-provider's storage for one model (it makes one per model it uses). */
export class DynamoDbOidcStorage implements Adapter {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly model: string,
    private readonly clock: Clock,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const lifetime = expiresIn ?? (this.model === 'Client' ? CLIENT_LIFETIMES.unused : undefined);
    const expiry = lifetime === undefined ? {} : { [TTL_ATTRIBUTE]: epochSeconds(this.clock) + lifetime };
    const items: Item[] = [
      {
        ...keys.oidc(this.model, id),
        type: 'oidc',
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        ...expiry,
        ...this.grantListing(id, payload),
      },
    ];
    if (GRANT_MEMBERS.has(this.model) && payload.grantId)
      items.push({
        ...keys.oidcGrantMember(payload.grantId, this.model, id),
        type: 'oidc_grant_member',
        id,
        ...expiry,
      });
    if (this.model === 'Session' && payload.uid)
      items.push({ ...keys.oidcSessionUid(payload.uid), type: 'oidc_pointer', id, ...expiry });
    if (payload.userCode)
      items.push({ ...keys.oidcUserCode(payload.userCode), type: 'oidc_pointer', id, ...expiry });
    const [only] = items;
    if (only && items.length === 1)
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: only }));
    else
      await transactWrite(
        this.doc,
        items.map((Item) => ({ write: { Put: { TableName: this.tableName, Item } } })),
      );
    if (CLIENT_USES.has(this.model) && payload.clientId) await this.clientUsed(payload.clientId);
  }

  /** Moves a registered client's expiry on after a use (a static client has no item: nothing happens). */
  private async clientUsed(clientId: string): Promise<void> {
    const later = epochSeconds(this.clock) + CLIENT_LIFETIMES.sinceLastUse;
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.oidc('Client', clientId),
          UpdateExpression: 'SET #expires = :later',
          ConditionExpression: 'attribute_exists(pk) AND #expires < :renewBefore',
          ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':later': later, ':renewBefore': later - CLIENT_USE_RESOLUTION },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const item = await this.read(keys.oidc(this.model, id));
    if (!item || typeof item.payload !== 'string') return undefined;
    const payload = JSON.parse(item.payload) as AdapterPayload;
    if (typeof item.consumed === 'number') payload.consumed = item.consumed;
    return payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findByPointer(keys.oidcSessionUid(uid), (payload) => payload.uid === uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findByPointer(keys.oidcUserCode(userCode), (payload) => payload.userCode === userCode);
  }

  /** Marks a code or token used (the time, in epoch seconds); one already gone stays gone. */
  async consume(id: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.oidc(this.model, id),
          // `consumed` is one of DynamoDB's reserved words.
          UpdateExpression: 'SET #consumed = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#consumed': 'consumed' },
          ExpressionAttributeValues: { ':now': epochSeconds(this.clock) },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  async destroy(id: string): Promise<void> {
    const { Attributes } = await this.doc.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.oidc(this.model, id),
        ReturnValues: 'ALL_OLD',
      }),
    );
    if (typeof Attributes?.payload !== 'string') return;
    const payload = JSON.parse(Attributes.payload) as AdapterPayload;
    const stale: Promise<void>[] = [];
    if (GRANT_MEMBERS.has(this.model) && payload.grantId)
      stale.push(this.delete(keys.oidcGrantMember(payload.grantId, this.model, id)));
    // A pointer may have been taken over by a newer artefact: only this one's goes.
    if (this.model === 'Session' && payload.uid)
      stale.push(this.delete(keys.oidcSessionUid(payload.uid), id));
    if (payload.userCode) stale.push(this.delete(keys.oidcUserCode(payload.userCode), id));
    await Promise.all(stale);
  }

  /** Deletes every artefact of this model issued under the grant, and their member items. */
  async revokeByGrantId(grantId: string): Promise<void> {
    const partition = keys.oidcGrantMember(grantId, this.model, '').pk;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :model)',
          ExpressionAttributeValues: { ':pk': partition, ':model': `${this.model}#` },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      const members = (page.Items ?? []).filter((item) => typeof item.id === 'string');
      await this.deleteAll(
        members.flatMap((member) => [
          keys.oidc(this.model, member.id as string),
          { pk: member.pk as string, sk: member.sk as string },
        ]),
      );
      start = page.LastEvaluatedKey;
    } while (start);
  }

  /** A grant is listed under its person, newest first (`ClientGrants`). */
  private grantListing(id: string, payload: AdapterPayload): Item {
    if (this.model !== 'Grant' || !payload.accountId || !payload.clientId) return {};
    const grantedAt = (payload.iat ?? epochSeconds(this.clock)) * 1e6;
    return {
      [LIST_INDEX.partitionKey]: keys.oidcGrantsOf(payload.accountId),
      [LIST_INDEX.sortKey]: byCreation(grantedAt, id),
      client_id: payload.clientId,
      granted_at: grantedAt,
    };
  }

  private async findByPointer(
    key: ItemKey,
    belongs: (payload: AdapterPayload) => boolean,
  ): Promise<AdapterPayload | undefined> {
    const pointer = await this.read(key);
    if (typeof pointer?.id !== 'string') return undefined;
    const payload = await this.find(pointer.id);
    return payload && belongs(payload) ? payload : undefined;
  }

  private async read(key: ItemKey): Promise<Item | undefined> {
    const item = await getItem(this.doc, this.tableName, key);
    return item && !isExpired(item, epochSeconds(this.clock)) ? item : undefined;
  }

  /** Deletes one item; with `pointingTo`, only while it still points to that id. */
  private async delete(key: ItemKey, pointingTo?: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: key,
          ...(pointingTo !== undefined && {
            ConditionExpression: 'id = :id',
            ExpressionAttributeValues: { ':id': pointingTo },
          }),
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  /** Deletes the items, in as few BatchWriteItem calls as its limit allows; retries what DynamoDB leaves. */
  private async deleteAll(itemKeys: readonly ItemKey[]): Promise<void> {
    for (let from = 0; from < itemKeys.length; from += MAX_BATCH_WRITES) {
      let pending: Record<string, unknown>[] = itemKeys
        .slice(from, from + MAX_BATCH_WRITES)
        .map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 1; pending.length > 0; attempt++) {
        const { UnprocessedItems } = await this.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }),
        );
        pending = UnprocessedItems?.[this.tableName] ?? [];
        if (pending.length > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.min(500, 10 * 2 ** attempt)));
      }
    }
  }
}

/** oidc-provider's `adapter` setting: storage for each model in the identity table. */
export const oidcProviderStorage =
  (doc: DynamoDBDocumentClient, tableName: string, clock: Clock): AdapterFactory =>
  (model) =>
    new DynamoDbOidcStorage(doc, tableName, model, clock);

/** The identity provider's grants, by person, from the list index. */
export class DynamoDbClientGrants implements ClientGrants {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async listByPerson(personId: string): Promise<ClientGrant[]> {
    const now = epochSeconds(this.clock);
    const items = (await queryAll(this.doc, this.tableName, LIST_INDEX, keys.oidcGrantsOf(personId))).filter(
      (item) => !isExpired(item, now),
    );
    // The clients' registrations, in one read, for the names people know them by.
    const clientIds = [...new Set(items.map((item) => item.client_id as string))];
    const registrations = await getItems(
      this.doc,
      this.tableName,
      clientIds.map((clientId) => keys.oidc('Client', clientId)),
    );
    const names = new Map(
      registrations.map((item) => {
        const payload = JSON.parse(String(item.payload)) as AdapterPayload;
        return [item.id as string, typeof payload.client_name === 'string' ? payload.client_name : null];
      }),
    );
    return items.map((item) => ({
      grantId: item.id as string,
      clientId: item.client_id as string,
      clientName: names.get(item.client_id as string) ?? null,
      grantedAt: item.granted_at as number,
    }));
  }

  async revoke(personId: string, grantId: string): Promise<boolean> {
    const held = await this.listByPerson(personId);
    if (!held.some((grant) => grant.grantId === grantId)) return false;
    // The codes and tokens first: were the grant to go first and this to fail half-way, the tokens left
    // could no longer be found through it.
    for (const model of GRANT_MEMBERS)
      await new DynamoDbOidcStorage(this.doc, this.tableName, model, this.clock).revokeByGrantId(grantId);
    await new DynamoDbOidcStorage(this.doc, this.tableName, 'Grant', this.clock).destroy(grantId);
    return true;
  }
}
