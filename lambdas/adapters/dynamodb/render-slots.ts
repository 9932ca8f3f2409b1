// adapter -> an organisation's renders under way, as `limit` slot items each holding one lease: taking a
// slot is a conditional put that succeeds only on a slot no one holds or whose lease has lapsed, so two
// renders never hold one slot, and a render whose host died frees its slot when the lease runs out.
import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '../../core/model';
import type { Clock, RenderSlots } from '../../core/ports';
import { keys } from './keys';
import { TTL_ATTRIBUTE } from './table-schema';
import { isConditionFailed } from './transactions';

/** A lapsed lease's item is garbage only: DynamoDB's TTL may remove it a day later. */
const ttlOf = (until: Micros): number => Math.ceil(until / 1e6) + 24 * 3600;

export class DynamoDbRenderSlots implements RenderSlots {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async take(organisationId: string, holder: string, limit: number, until: Micros): Promise<number | null> {
    // Slots in a random order, so that renders starting together do not all fight over slot 0 first.
    const start = Math.floor(Math.random() * limit);
    for (let n = 0; n < limit; n++) {
      const index = (start + n) % limit;
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.renderSlot(organisationId, index),
            UpdateExpression: `SET holder = :holder, #until = :until, ${TTL_ATTRIBUTE} = :ttl`,
            ConditionExpression: 'attribute_not_exists(#until) OR #until < :now',
            ExpressionAttributeNames: { '#until': 'until' },
            ExpressionAttributeValues: {
              ':holder': holder,
              ':until': until,
              ':ttl': ttlOf(until),
              ':now': this.clock.now(),
            },
          }),
        );
        return index;
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    return null;
  }

  async renew(organisationId: string, index: number, holder: string, until: Micros): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.renderSlot(organisationId, index),
          UpdateExpression: `SET #until = :until, ${TTL_ATTRIBUTE} = :ttl`,
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':holder': holder, ':until': until, ':ttl': ttlOf(until) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  async give(organisationId: string, index: number, holder: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.renderSlot(organisationId, index),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
}
