// adapter -> the portal's sessions and sign-ins under way, in the identity table: one item each, under
// the hash of its cookie, expiring by the table's TTL. DynamoDB deletes expired items only within a day
// or two, so reads treat an item past its expiry as gone. The back office keeps its sessions the same way
// under keys of its own (`scope`), so that a portal session is never a back-office one, nor the reverse.
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PendingSignIn, PortalSession, PortalSessionStore } from '../../core/portal-sessions';
import type { Clock } from '../../core/ports';
import type { Item } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { TTL_ATTRIBUTE } from './table-schema';
import { isConditionFailed } from './transactions';

const ttl = (expiresAt: number): number => Math.ceil(expiresAt / 1e6);

/** Whose sessions a store keeps: the portal's or the back office's (decisions.md §11 Rules). */
export type SessionScope = 'portal' | 'back_office';

const SCOPE_KEYS = {
  portal: { session: keys.portalSession, signIn: keys.portalSignIn },
  back_office: { session: keys.backOfficeSession, signIn: keys.backOfficeSignIn },
} as const;

export class DynamoDbPortalSessionStore implements PortalSessionStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
    private readonly scope: SessionScope = 'portal',
  ) {}

  async putSession(session: PortalSession): Promise<void> {
    await this.put({
      ...SCOPE_KEYS[this.scope].session(session.id),
      type: `${this.scope}_session`,
      id: session.id,
      person_id: session.personId,
      email: session.email,
      csrf_token: session.csrfToken,
      created_at: session.createdAt,
      expires_at_micros: session.expiresAt,
      [TTL_ATTRIBUTE]: ttl(session.expiresAt),
    });
  }

  async getSession(id: string): Promise<PortalSession | null> {
    const item = await getItem(this.doc, this.tableName, SCOPE_KEYS[this.scope].session(id));
    if (!item || !this.current(item)) return null;
    return {
      id: item.id as string,
      personId: item.person_id as string,
      email: item.email as string,
      csrfToken: item.csrf_token as string,
      createdAt: item.created_at as number,
      expiresAt: item.expires_at_micros as number,
    };
  }

  async deleteSession(id: string): Promise<void> {
    await this.doc.send(
      new DeleteCommand({ TableName: this.tableName, Key: SCOPE_KEYS[this.scope].session(id) }),
    );
  }

  async putSignIn(signIn: PendingSignIn): Promise<void> {
    await this.put({
      ...SCOPE_KEYS[this.scope].signIn(signIn.id),
      type: `${this.scope}_sign_in`,
      id: signIn.id,
      state: signIn.state,
      nonce: signIn.nonce,
      code_verifier: signIn.codeVerifier,
      return_to: signIn.returnTo,
      expires_at_micros: signIn.expiresAt,
      [TTL_ATTRIBUTE]: ttl(signIn.expiresAt),
    });
  }

  async takeSignIn(id: string): Promise<PendingSignIn | null> {
    // Deleted as read, on the condition that it is there: of two callbacks with the same cookie, only one
    // finds it (the other's delete fails its condition).
    let item: Item | undefined;
    try {
      ({ Attributes: item } = await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: SCOPE_KEYS[this.scope].signIn(id),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      ));
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
    if (!item || !this.current(item)) return null;
    return {
      id: item.id as string,
      state: item.state as string,
      nonce: item.nonce as string,
      codeVerifier: item.code_verifier as string,
      returnTo: item.return_to as string,
      expiresAt: item.expires_at_micros as number,
    };
  }

  private current(item: Item): boolean {
    return typeof item.expires_at_micros === 'number' && item.expires_at_micros > this.clock.now();
  }

  private async put(item: Item): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: item }));
  }
}
